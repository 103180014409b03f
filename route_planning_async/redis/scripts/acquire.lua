-- Takes a slot under every rule at once, or answers how long to wait.
-- KEYS: slots, inflight, penalty, rules.
-- ARGV: member ("<token>|<weight>"), weight, lease_us, seen_run_id, horizon_us,
--       rules_text, rules_floor_us, then per rule: amount, period_us, per ("w" for weight rules).
-- Answers {granted, wait_us (-1: only in-flight slots block), factor, run_id}, or
-- {-1, 0, stored_rules_text, run_id} when the rules stored for the category are
-- not the caller's: nothing is taken then, and nothing trimmed.

local slots, inflight, penalty, rules = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local member, weight, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local seen_run_id, horizon = ARGV[4], tonumber(ARGV[5])
local rules_text, rules_floor = ARGV[6], math.ceil(tonumber(ARGV[7]) / 1000)
local FIRST_RULE = 8

local info = redis.call('INFO', 'server')
local run_id = string.match(info, 'run_id:(%x+)')
local stored = redis.call('GET', rules)
if stored and stored ~= rules_text then
  return {-1, 0, stored, run_id}
end
-- Every answer below keeps the caller's rules stored as long as the slots.
local function answer(granted, wait, factor)
  keep_rules(rules, slots, inflight, rules_floor, rules_text)
  return {granted, wait, factor, run_id}
end
local state = redis.call('HMGET', penalty, 'until', 'factor')
local paused_until = tonumber(state[1]) or 0
local factor_text = state[2] or '1'
local factor = tonumber(factor_text)

-- The server restarted since this caller last spoke to it: the slots of the
-- last period are gone, so hold the key until they would have stopped counting.
if seen_run_id ~= '' and seen_run_id ~= run_id and horizon > 0 then
  -- Whole seconds between two truncated clock readings: up to 1 s more than the truth.
  local uptime = (tonumber(string.match(info, 'uptime_in_seconds:(%d+)')) - 1) * 1000000
  if uptime < horizon and now + horizon > paused_until then
    paused_until = now + horizon
    redis.call('HSET', penalty, 'until', paused_until)
    keep_penalty(penalty, paused_until, horizon)
  end
end
if paused_until > now then
  return answer(0, math.ceil(paused_until - now), factor_text)
end

-- In-flight slots whose lease ran out (their process died) become anchored at
-- the lease's end; '|x' marks them so that a late release still finds them.
local expired = redis.call('ZRANGEBYSCORE', inflight, '-inf', now, 'WITHSCORES')
for j = 1, #expired, 2 do
  redis.call('ZREM', inflight, expired[j])
  redis.call('ZADD', slots, expired[j + 1], expired[j] .. '|x')
end
if #expired > 0 then expire_after_last(slots, horizon) end
if horizon > 0 then
  redis.call('ZREMRANGEBYSCORE', slots, '-inf', now - horizon)
end

local flying = redis.call('ZRANGE', inflight, 0, -1)
local flying_weight = 0
for j = 1, #flying do flying_weight = flying_weight + weight_of(flying[j]) end

-- Per rule: the slots counted are the in-flight ones and the anchored ones with
-- anchor > now - period, oldest anchor first (the sorted set's order, whatever
-- order the slots were anchored in). A request passes when its cost fits the
-- learned amount, or alone in an empty window; else it waits until enough of
-- the oldest counted slots have stopped counting.
local wait = 0
for i = FIRST_RULE, #ARGV, 3 do
  local amount, period = learned(tonumber(ARGV[i]), factor), tonumber(ARGV[i + 1])
  local since = string.format('(%.17g', now - period)
  local rule_wait = 0
  if ARGV[i + 2] == 'w' then
    local live = redis.call('ZRANGEBYSCORE', slots, since, '+inf', 'WITHSCORES')
    local used = flying_weight
    for j = 1, #live, 2 do used = used + weight_of(live[j]) end
    local excess = used + weight - amount
    if excess > 0 and used > 0 then
      rule_wait = -1
      for j = 1, #live, 2 do
        excess = excess - weight_of(live[j])
        if excess <= 0 then
          rule_wait = tonumber(live[j + 1]) + period - now
          break
        end
      end
      if rule_wait < 0 and flying_weight == 0 then
        -- Heavier than the learned amount: it passes alone once the window is empty.
        rule_wait = tonumber(live[#live]) + period - now
      end
    end
  else
    -- Counting needs no scan: the excess-th live slot is the one to wait for. A
    -- request costs 1 <= amount, so "alone in an empty window" always fits here.
    local excess = #flying + redis.call('ZCOUNT', slots, since, '+inf') + 1 - amount
    if excess > 0 then
      rule_wait = -1
      local nth = redis.call('ZRANGEBYSCORE', slots, since, '+inf', 'WITHSCORES', 'LIMIT', excess - 1, 1)
      if nth[2] then rule_wait = tonumber(nth[2]) + period - now end
    end
  end
  if rule_wait < 0 or wait < 0 then
    wait = -1
  elseif rule_wait > wait then
    wait = rule_wait
  end
end
if wait ~= 0 then
  return answer(0, wait < 0 and -1 or math.ceil(wait), factor_text)
end
if #ARGV >= FIRST_RULE then
  redis.call('ZADD', inflight, now + lease, member)
  expire_after_last(inflight, horizon)
end
return answer(1, 0, factor_text)
