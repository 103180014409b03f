-- Takes the key's turn to probe its rate factor upward.
-- KEYS: penalty. ARGV: turn_us, horizon_us. Answers 0 when the turn is the
-- caller's, else the microseconds left of the turn another caller took.
-- A round trip redis-py sends again finds its own turn taken: the caller then
-- waits for it rather than probing twice.

local penalty = KEYS[1]
local turn, horizon = tonumber(ARGV[1]), tonumber(ARGV[2])
local state = redis.call('HMGET', penalty, 'until', 'probe', 'factor')
local taken_until = tonumber(state[2]) or 0
if taken_until > now then
  return math.max(1, math.floor(taken_until - now))
end
local paused_until = tonumber(state[1]) or 0
redis.call('HSET', penalty, 'probe', now + math.floor(turn))
if state[3] then
  keep_penalty(penalty, paused_until, horizon)
else
  -- Nothing learned to keep: the hash lives as long as its pause or this turn.
  redis.call('PEXPIRE', penalty, ttl_ms(math.max(paused_until, now + turn)))
end
return 0
