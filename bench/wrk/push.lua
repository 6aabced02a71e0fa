-- wrk script: pushes of one fresh insert each (distinct mutation ids and rows per thread).
local jwt = os.getenv("ACCORD_JWT")
local user = os.getenv("ACCORD_USER")
local counter = 0
local threads = {}
-- thread_id is a global set per thread by setup(); a local here would shadow it and give
-- every thread the same ids.

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function request()
  counter = counter + 1
  local n = string.format("%02d%08d", thread_id, counter)
  local body = '{"batch":{"atomic":false,"mutations":[{"columns":{"done":false,"owner_id":"' .. user ..
    '","title":"load"},"mutation_id":"00000000-0000-4000-8000-f1' .. n .. '","op":"insert","pk":"00000000-0000-4000-8000-e1' .. n ..
    '","table":"todos"}]},"last_mutation_id":null,"schema_version":1}'
  return wrk.format("POST", "/rest/v1/rpc/push", {
    ["Authorization"] = "Bearer " .. jwt, ["Content-Type"] = "application/json", ["Content-Profile"] = "kizunasync" }, body)
end

function response(status, headers, body)
  if status ~= 200 then io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n") end
end
