-- KEYS: slots, inflight. ARGV: per rule: period_us, per ("w" for weight rules).
-- Answers, per rule, three costs: {admitted, refused, in_flight}. Admitted: the
-- anchored slots of the window ending now (anchor > now - period) released as
-- admitted. Refused: those of the same window not known admitted, released after
-- a 429 or without an answer ('|r', release.lua), or anchored at an expired
-- lease's end ('|x', acquire.lua; an in-flight slot whose lease has ended, which
-- the next acquisition will anchor so, counts so already). In flight: the slots
-- granted and not yet released whose lease lasts.

local slots, inflight = KEYS[1], KEYS[2]
local anchored = redis.call('ZRANGE', slots, 0, -1, 'WITHSCORES')
local flying = redis.call('ZRANGE', inflight, 0, -1, 'WITHSCORES')
local windows = {}
for i = 1, #ARGV, 2 do
  local since = now - tonumber(ARGV[i])
  local weighted = ARGV[i + 1] == 'w'
  local function cost(member)
    return weighted and weight_of(member) or 1
  end
  local admitted, refused, in_flight = 0, 0, 0
  for j = 1, #anchored, 2 do
    -- The same test as ZRANGEBYSCORE's exclusive '(' bound in acquire.lua.
    if tonumber(anchored[j + 1]) > since then
      if string.find(anchored[j], '|[rx]$') then
        refused = refused + cost(anchored[j])
      else
        admitted = admitted + cost(anchored[j])
      end
    end
  end
  for j = 1, #flying, 2 do
    local lease_end = tonumber(flying[j + 1])
    if lease_end > now then
      in_flight = in_flight + cost(flying[j])
    elseif lease_end > since then
      refused = refused + cost(flying[j])
    end
  end
  windows[#windows + 1] = {admitted, refused, in_flight}
end
return windows
