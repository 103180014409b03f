-- Raises the key's rate factor.
-- KEYS: penalty. ARGV: factor (at most 1), horizon_us. Answers the factor in force.
-- Idempotent, as penalize.lua.

local penalty = KEYS[1]
local factor, horizon = ARGV[1], tonumber(ARGV[2])
local state = redis.call('HMGET', penalty, 'until', 'factor', 'probe')
local current = state[2] or '1'
if tonumber(current) >= tonumber(factor) then factor = current end
if tonumber(factor) >= 1 then
  -- Back at the configured limits: nothing is left to remember but a pause and
  -- the turn to probe (the raise may be that probe, and fail: the turn keeps the
  -- others from probing again at once).
  if (tonumber(state[1]) or 0) <= now and (tonumber(state[3]) or 0) <= now then
    redis.call('DEL', penalty)
  else
    redis.call('HDEL', penalty, 'factor')
  end
  return '1'
end
redis.call('HSET', penalty, 'factor', factor)
keep_penalty(penalty, tonumber(state[1]) or 0, horizon)
return factor
