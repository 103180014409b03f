-- Put before every script: the server's clock in microseconds, TTLs that keep
-- a sorted set until its newest entry stops counting, the weight in a member,
-- the learned amount of a rule, the penalty's lifetime and the stored rules'.
--
-- Rate factors are kept as the text the caller sent (a Python float's repr) and
-- answered as stored: Lua's tostring would round them to 14 digits.

-- How long the learned rate factor outlives the key's traffic, in longest periods.
local FACTOR_MEMORY = 10

local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local function ttl_ms(deadline)
  return math.max(1, math.ceil((deadline - now) / 1000))
end
local function expire_after_last(key, period)
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if last[2] then
    redis.call('PEXPIRE', key, ttl_ms(tonumber(last[2]) + period))
  end
end
local function weight_of(member)
  return tonumber(string.match(member, '|(%d+)'))
end
local function learned(amount, factor)
  -- learned_amount() of _rate_limits/_backends.py, in the same double arithmetic.
  return math.max(1, math.floor(amount * factor + 1e-9))
end
local function keep_penalty(penalty, paused_until, horizon)
  -- The pause lasts its time; the learned factor until the key has been idle
  -- for FACTOR_MEMORY longest periods after it (every release renews this).
  redis.call('PEXPIRE', penalty, ttl_ms(math.max(paused_until, now) + FACTOR_MEMORY * horizon))
end
local function keep_rules(rules, slots, inflight, floor_ms, text)
  -- The rules stored by acquire.lua live as long as the category's slots (or
  -- floor_ms, for a caller without rules, whose requests take no slot): while
  -- any slot counts, only callers with the same rules may add to it.
  local ttl = math.max(redis.call('PTTL', slots), redis.call('PTTL', inflight), floor_ms)
  if ttl <= 0 then
    redis.call('DEL', rules)
  elseif text then
    redis.call('SET', rules, text, 'PX', ttl)
  else
    redis.call('PEXPIRE', rules, ttl)
  end
end
