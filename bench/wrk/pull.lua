-- wrk script: bootstrap pulls of one user's bucket (ACCORD_JWT, ACCORD_USER from the environment).
local jwt = os.getenv("ACCORD_JWT")
local user = os.getenv("ACCORD_USER")
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer " .. jwt
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Content-Profile"] = "kizunasync"
wrk.body = '{"buckets":[{"params":{"owner_id":"' .. user .. '"},"table":"todos"}],"cursor":"0","limit":100,"schema_version":1}'

function response(status, headers, body)
  if status ~= 200 then io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n") end
end
