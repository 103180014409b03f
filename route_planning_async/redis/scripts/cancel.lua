-- Removes a slot, in flight or anchored by its lease, as if never granted.
-- KEYS: slots, inflight. ARGV: member.

redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1] .. '|x')
return 1
