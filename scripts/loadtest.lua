-- wrk script of scripts/loadtest.sh: POSTs the files named in a list (one
-- path a line, the first argument after --) to /api/v1/inspect as
-- multipart/form-data, round robin, each thread starting at its own file;
-- counts status codes and 503s without Retry-After, and prints one line
-- for the shell to read:
--   RESULT requests=N seconds=S rps=R p50ms=A p99ms=B maxms=C codes=200:n,503:m
--          noretry=N connect=N read=N write=N timeout=N
local boundary = "doctrustloadtest7d1f0c"
local threads = {}

function setup(thread)
  thread:set("offset", #threads)
  table.insert(threads, thread)
end

local function multipart(path)
  local fh = assert(io.open(path, "rb"))
  local data = fh:read("*a")
  fh:close()
  local name = path:match("[^/]+$")
  return "--" .. boundary .. "\r\n" ..
    'Content-Disposition: form-data; name="file"; filename="' .. name .. '"\r\n' ..
    "Content-Type: application/octet-stream\r\n\r\n" ..
    data .. "\r\n--" .. boundary .. "--\r\n"
end

function init(args)
  local headers = { ["Content-Type"] = "multipart/form-data; boundary=" .. boundary }
  reqs = {}
  for path in io.lines(args[1]) do
    if path ~= "" then
      table.insert(reqs, wrk.format("POST", "/api/v1/inspect", headers, multipart(path)))
    end
  end
  assert(#reqs > 0, "no files in " .. args[1])
  n = offset or 0
  codes = {}
  noretry = 0
end

function request()
  n = n + 1
  return reqs[n % #reqs + 1]
end

function response(status, headers, body)
  codes[status] = (codes[status] or 0) + 1
  if status == 503 and headers["Retry-After"] == nil then
    noretry = noretry + 1
  end
end

function done(summary, latency, requests)
  local all, nr = {}, 0
  for _, t in ipairs(threads) do
    for code, c in pairs(t:get("codes")) do
      all[code] = (all[code] or 0) + c
    end
    nr = nr + t:get("noretry")
  end
  local keys = {}
  for code in pairs(all) do table.insert(keys, code) end
  table.sort(keys)
  local parts = {}
  for _, code in ipairs(keys) do table.insert(parts, code .. ":" .. all[code]) end
  local s = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d seconds=%.1f rps=%.1f p50ms=%.1f p99ms=%.1f maxms=%.1f codes=%s noretry=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, s, summary.requests / s, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, table.concat(parts, ","), nr, e.connect, e.read, e.write, e.timeout))
end
