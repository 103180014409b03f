-- KEYS: slots. ARGV: per rule: period_us, per ("w" for weight rules).
-- Answers, per rule, the cost of the admitted slots anchored in the window ending
-- now (anchor > now - period): neither in flight, nor released as not known
-- admitted ('|r', release.lua: a 429 or no answer), nor anchored at an expired
-- lease's end ('|x', acquire.lua).

local slots = KEYS[1]
local usage = {}
for i = 1, #ARGV, 2 do
  local since = string.format('(%.17g', now - tonumber(ARGV[i]))
  local weighted = ARGV[i + 1] == 'w'
  local used = 0
  local live = redis.call('ZRANGEBYSCORE', slots, since, '+inf')
  for j = 1, #live do
    if not string.find(live[j], '|[rx]$') then
      used = used + (weighted and weight_of(live[j]) or 1)
    end
  end
  usage[#usage + 1] = used
end
return usage
