-- Pauses the key and lowers its rate factor after a 429.
-- KEYS: penalty. ARGV: pause_us, factor, horizon_us. Answers the factor in force.
-- Idempotent (a maximum and a minimum): a round trip redis-py sends again changes nothing.

local penalty = KEYS[1]
local pause, factor, horizon = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
local state = redis.call('HMGET', penalty, 'until', 'factor')
local current = state[2] or '1'
if tonumber(current) <= tonumber(factor) then factor = current end
local paused_until = math.max(tonumber(state[1]) or 0, now + pause)
redis.call('HSET', penalty, 'until', paused_until, 'factor', factor)
keep_penalty(penalty, paused_until, horizon)
return factor
