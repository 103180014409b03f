-- KEYS: slots, inflight. ARGV: per rule: period_us, per ("w" for weight rules).
-- Answers, per rule, the cost of the slots that count in the window ending now:
-- in-flight slots (an expired lease counts as a slot anchored at its end, as
-- acquire would anchor it) and anchored ones with anchor > now - period.

local slots, inflight = KEYS[1], KEYS[2]
local usage = {}
for i = 1, #ARGV, 2 do
  local since = string.format('(%.17g', now - tonumber(ARGV[i]))
  local used = 0
  if ARGV[i + 1] == 'w' then
    for _, key in ipairs({slots, inflight}) do
      local live = redis.call('ZRANGEBYSCORE', key, since, '+inf')
      for j = 1, #live do used = used + weight_of(live[j]) end
    end
  else
    used = redis.call('ZCOUNT', slots, since, '+inf') + redis.call('ZCOUNT', inflight, since, '+inf')
  end
  usage[#usage + 1] = used
end
return usage
