#!/bin/sh
# Two `rewrite --in-place` runs on one file at once: the first holds the
# file's lock while its test command runs; the second must be refused
# (exit 2) instead of writing, and the first must then write.
#   concurrent_in_place.sh "AVE" FILE WORKDIR
ave=$1 file=$2 dir=$3
rm -f "$dir/started"
$ave rewrite "$file" --apply lds-pad:pad=1 --in-place --no-nvcc \
  --test-cmd "touch '$dir/started'; sleep 2" > "$dir/first.out" 2>&1 &
first=$!
i=0
while [ ! -e "$dir/started" ] && [ $i -lt 1200 ]; do
  sleep 0.1
  i=$((i + 1))
done
$ave rewrite "$file" --apply lds-pad:pad=2 --in-place --no-verify > "$dir/second.out" 2>&1
echo "second: $?"
wait $first
echo "first: $?"
