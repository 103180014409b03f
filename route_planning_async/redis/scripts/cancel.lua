-- Removes a slot, in flight or anchored by its lease, as if never granted.
-- KEYS: slots, inflight, rules. ARGV: member.

local removed = redis.call('ZREM', KEYS[2], ARGV[1]) + redis.call('ZREM', KEYS[1], ARGV[1] .. '|x')
if removed > 0 then keep_rules(KEYS[3], KEYS[1], KEYS[2], 0) end
return 1
