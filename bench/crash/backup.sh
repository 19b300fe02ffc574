#!/usr/bin/env bash
# Backup under load (SQLite): `roomtax backup` while clients file returns and record
# payments, each backup restored into a fresh file with `roomtax restore` and compared
# with the live database (row counts, every acknowledged request, append-only rows,
# `roomtax check`; the backup taken idle equal row for row). See bench/crash/README.md.
#
#   bench/crash/backup.sh [--backups N] [--clients K] [--seed S] [--keep]
#
# ROOMTAX_BIN: the binary (default target/debug/roomtax). Exit 0 on PASS, 1 on FAIL.
# PostgreSQL is backed up with pg_dump (README: "Backup and restore").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
keep="" args=()
while (($#)); do
  case $1 in
    --backups|--clients|--seed) args+=("$1" "$2"); shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
bin=${ROOMTAX_BIN:-target/debug/roomtax}
[[ -x $bin ]] || cargo build --locked
bin=$(realpath "$bin")
work=$(mktemp -d "${TMPDIR:-/tmp}/roomtax-backup.XXXXXX")
cleanup() { if [[ -n $keep ]]; then echo "kept $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT
unset ROOMTAX_CONFIG ROOMTAX_DATABASE_URL ROOMTAX_MIGRATION_DATABASE_URL
python3 bench/crash/backup.py --bin "$bin" --work "$work" "${args[@]}"
