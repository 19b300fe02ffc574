#!/usr/bin/env bash
# Instructions per request, counted by valgrind's callgrind: a figure that does not move
# with the machine's load, unlike requests/s on two shared cores (bench/README.md,
# "Instructions per request"). User-space instructions of the server only (the kernel's
# share, the socket's send and receive, is not counted).
#
#   bench/instructions.sh --binary PATH (--path /healthz | --lua SCRIPT) [--as EMAIL]
#                         [--seconds N] [--keep]
#
# Starts PATH with `serve --demo` under callgrind in a fresh folder (port 8111), warms it
# for 3 s with wrk (1 thread, 4 connections), zeroes the counters, loads it for N seconds
# (default 10), dumps the counters and prints the instructions per request answered.
# --keep leaves the work folder and names the dump, for `callgrind_annotate --inclusive=yes`.
# --as EMAIL signs in as that demo account (the password the demo prints) and sends its
# access token with every request, e.g. a statement:
#   --as clerk@montello.demo --path /v1/municipalities/montello/payors/5b0c8c1e-0000-4000-8000-000000000001/account
# --lua is a wrk script whose requests go to the demo server (bench/wrk/quote-demo.lua
# quotes Montello as the harness's quote scenario does). Needs valgrind and wrk.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

binary="" path="" lua="" seconds=10 port=8111 keep="" as=""
while (($#)); do
  case $1 in
    --binary) binary=$(realpath "$2"); shift 2 ;;
    --path) path=$2; shift 2 ;;
    --lua) lua=$(realpath "$2"); shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --as) as=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x $binary ]] || { echo "--binary PATH (a roomtax binary) is required" >&2; exit 2; }
[[ -n $path || -n $lua ]] || { echo "--path or --lua is required" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is missing" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is missing (bench/run.sh installs it)" >&2; exit 2; }

work=$(mktemp -d /tmp/roomtax-instructions.XXXXXX)
server=""
cleanup() {
  [[ -n $server ]] && kill "$server" 2>/dev/null
  wait 2>/dev/null
  if [[ -n $keep ]]; then echo "kept $work (the dump: $work/callgrind.out.1)"; else rm -rf "$work"; fi
}
trap cleanup EXIT

(cd "$work" && ROOMTAX_PORT=$port ROOMTAX_LOG=warn exec valgrind --tool=callgrind \
  --callgrind-out-file="$work/callgrind.out" "$binary" serve --demo >"$work/serve.log" 2>&1) &
server=$!
for _ in $(seq 1 180); do
  curl -fs -o /dev/null "http://127.0.0.1:$port/healthz" && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
  sleep 1
done
if [[ -n $lua ]]; then target=(-s "$lua" "http://127.0.0.1:$port/"); else target=("http://127.0.0.1:$port$path"); fi
if [[ -n $as ]]; then
  password=$(sed -n 's/^Demo accounts (password shown only now): //p' "$work/serve.log")
  token=$(curl -fs "http://127.0.0.1:$port/v1/auth/token" -H 'content-type: application/json' \
    -d "{\"email\":\"$as\",\"password\":\"$password\"}" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')
  target=(-H "authorization: Bearer $token" "${target[@]}")
fi
wrk -t1 -c4 -d3s "${target[@]}" >/dev/null
callgrind_control -z "$server" >/dev/null 2>&1
wrk -t1 -c4 -d"${seconds}s" "${target[@]}" >"$work/wrk.txt"
callgrind_control -d "$server" >/dev/null 2>&1
requests=$(awk '/requests in/ {print $1}' "$work/wrk.txt")
non2xx=$(awk '/Non-2xx/ {print $NF}' "$work/wrk.txt")
total=$(callgrind_annotate "$work/callgrind.out.1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
[[ -n $requests && $requests -gt 0 && -n $total ]] || { echo "no measurement" >&2; exit 1; }
echo "binary $binary  ${path:-$lua}  requests $requests  non-2xx ${non2xx:-0}  instructions/request $((total / requests))"
[[ -z $non2xx ]]
