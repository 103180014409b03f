-- Takes the key's turn to probe its rate factor upward.
-- KEYS: penalty. ARGV: turn_us, horizon_us. Answers 0 when the turn is the
-- caller's, else the microseconds left of the turn another caller took.
-- A round trip redis-py sends again finds its own turn taken: the caller then
-- waits for it rather than probing twice.

local penalty = KEYS[1]
local turn, horizon = tonumber(ARGV[1]), tonumber(ARGV[2])
local state = redis.call('HMGET', penalty, 'until', 'probe')
local taken_until = tonumber(state[2]) or 0
if taken_until > now then
  return math.max(1, math.floor(taken_until - now))
end
redis.call('HSET', penalty, 'probe', now + math.floor(turn))
keep_penalty(penalty, tonumber(state[1]) or 0, horizon)
return 0
