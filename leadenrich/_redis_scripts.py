"""The Lua scripts of a shared budget: each one round trip, atomic, on the Redis clock."""

from __future__ import annotations

__all__ = ["ACQUIRE", "GIVE_BACK", "RENEW", "RESERVE"]

# Every script starts with this: the Redis clock, and a way to make a key live at least so
# long without shortening what another client (with a longer lease, say) gave it.
PRELUDE = """
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local function keep(key, seconds)
  local ms = math.ceil(seconds * 1000)
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
end
"""

# The log of send times, as `_Window` keeps it, on the Redis server's clock. ARGV: the
# limit, the period, how long the client's own log still makes it wait (so the place
# booked here is the one it sends at), then the places it took while Redis did not
# answer, as seconds before now (negative: still to come). Those are merged in first:
# the log is the fleet's sends, the outage's included. Of the merged log only the latest
# `limit` places can hold a new one back.
# The wait goes back as a string: Redis cuts a Lua number down to an integer.
RESERVE = (
    PRELUDE
    + """
local limit = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local at = now + tonumber(ARGV[3])
if #ARGV > 3 then
  local log = {}
  for _, place in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do log[#log + 1] = tonumber(place) end
  for i = 4, #ARGV do log[#log + 1] = now - tonumber(ARGV[i]) end
  table.sort(log)
  redis.call('DEL', KEYS[1])
  for i = math.max(1, #log - limit + 1), #log do
    redis.call('RPUSH', KEYS[1], string.format('%.6f', log[i]))
  end
  keep(KEYS[1], log[#log] - now + period)
end
local n = redis.call('LLEN', KEYS[1])
while n >= limit do
  local first = tonumber(redis.call('LPOP', KEYS[1]))
  if first + period > at then at = first + period end
  n = n - 1
end
redis.call('RPUSH', KEYS[1], string.format('%.6f', at))
keep(KEYS[1], at - now + period)
return string.format('%.6f', at - now)
"""
)

# A lease on one enrichment slot: token -> expiry in a sorted set (KEYS[1]); expired
# leases go first. A token already given back (KEYS[2]) is refused: its client stopped
# waiting for this answer, and the request may reach Redis after the give-back did.
ACQUIRE = (
    PRELUDE
    + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[2], ARGV[3]) then return 0 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
keep(KEYS[1], tonumber(ARGV[2]) + 1)
return 1
"""
)

# Only leases still there are extended (XX): one that ran out may already be someone else's.
RENEW = (
    PRELUDE
    + """
local expiry = now + tonumber(ARGV[1])
local kept = 0
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], 'XX', expiry, ARGV[i])
    kept = kept + 1
  end
end
if kept > 0 then keep(KEYS[1], tonumber(ARGV[1]) + 1) end
return kept
"""
)

# Give leases back by their tokens (ARGV[2..]), granted or not: each token is remembered
# for a lease (ARGV[1]) in KEYS[2], so an ACQUIRE of it still on its way is refused.
# Tokens are random and never reused, so one remembered too long refuses nothing else.
GIVE_BACK = (
    PRELUDE
    + """
local lease = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
for i = 2, #ARGV do
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('ZADD', KEYS[2], now + lease, ARGV[i])
end
keep(KEYS[2], lease + 1)
return 0
"""
)
