#!/bin/sh
# One-time set-up of the one-node Garage (safe to run again): the layout, the server's access key
# (S3_ACCESS_KEY_ID: GK followed by 24 hex digits; S3_SECRET_ACCESS_KEY: 64 hex digits) and the
# bucket it may read and write. Uses Garage's admin API (v1).
set -eu
apk add --no-cache curl jq >/dev/null

api() {
  method=$1
  path=$2
  shift 2
  curl -fsS -X "$method" -H "Authorization: Bearer $GARAGE_ADMIN_TOKEN" \
    -H 'Content-Type: application/json' "$GARAGE_ADMIN_URL$path" "$@"
}

until api GET /v1/status >/dev/null 2>&1; do sleep 1; done
status=$(api GET /v1/status)
node=$(echo "$status" | jq -r '.node')
version=$(echo "$status" | jq -r '.layout.version')
if [ "$version" = "0" ]; then
  api POST /v1/layout -d "[{\"id\":\"$node\",\"zone\":\"dc1\",\"capacity\":100000000000,\"tags\":[]}]" >/dev/null
  api POST /v1/layout/apply -d '{"version":1}' >/dev/null
  echo "layout applied on node $node"
fi

if ! api GET "/v1/key?id=$GARAGE_KEY_ID" >/dev/null 2>&1; then
  api POST /v1/key/import -d "{\"accessKeyId\":\"$GARAGE_KEY_ID\",\"secretAccessKey\":\"$GARAGE_KEY_SECRET\",\"name\":\"flashbooth-server\"}" >/dev/null
  echo "key $GARAGE_KEY_ID imported"
fi

if ! api GET "/v1/bucket?globalAlias=$GARAGE_BUCKET" >/dev/null 2>&1; then
  api POST /v1/bucket -d "{\"globalAlias\":\"$GARAGE_BUCKET\"}" >/dev/null
  echo "bucket $GARAGE_BUCKET created"
fi
bucket=$(api GET "/v1/bucket?globalAlias=$GARAGE_BUCKET" | jq -r '.id')
api POST /v1/bucket/allow -d "{\"bucketId\":\"$bucket\",\"accessKeyId\":\"$GARAGE_KEY_ID\",\"permissions\":{\"read\":true,\"write\":true,\"owner\":true}}" >/dev/null
echo "garage ready: bucket $GARAGE_BUCKET for key $GARAGE_KEY_ID"
