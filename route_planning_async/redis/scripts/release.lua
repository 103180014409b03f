-- Anchors an in-flight slot at the server's now plus extra.
-- KEYS: slots, inflight, penalty, rules. ARGV: member, extra_us, horizon_us,
-- admitted ("1" when the service admitted the attempt; else, a 429 or no answer,
-- the anchored slot is marked '|r': not known admitted, it counts as any slot
-- but as refused in window.lua).
-- Answers 1 if anchored, 0 if the slot was unknown.

local slots, inflight, penalty, rules = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
-- extra may be negative: the anchor may be earlier than the slot's admission and
-- than other slots' anchors; the sorted set orders it among them all the same.
local member, anchor, horizon = ARGV[1], now + tonumber(ARGV[2]), tonumber(ARGV[3])
if redis.call('ZREM', inflight, member) == 0 then
  local late = member .. '|x'
  local lease_end = redis.call('ZSCORE', slots, late)
  if not lease_end then return 0 end
  redis.call('ZREM', slots, late)
  -- Others were already told the slot counts from its lease's end: never earlier.
  anchor = math.max(anchor, tonumber(lease_end))
end
if ARGV[4] ~= '1' then member = member .. '|r' end
redis.call('ZADD', slots, anchor, member)
expire_after_last(slots, horizon)
keep_rules(rules, slots, inflight, 0)
if redis.call('EXISTS', penalty) == 1 then
  -- Traffic goes on: the learned factor is kept.
  keep_penalty(penalty, tonumber(redis.call('HGET', penalty, 'until')) or 0, horizon)
end
return 1
