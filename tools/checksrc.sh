#!/bin/sh
# checksrc.sh [ROOT [ARCHIVE]] — the house rules of docs/architecture.md
# ("Include rules", and the banned calls and prefixes listed under it) that
# a compiler does not check (curl's checksrc, libuv's prefix rule), over
# ROOT (default: the repository this script is in):
#
#  banned   no sprintf, vsprintf, strcpy, strcat, strncat, strncpy, sscanf,
#           atoi, atol, strtok or gets call in lib/ src/ server/ tests/unit/
#           tests/fuzz/ (comments and string literals are not code);
#  includes what each folder may #include "..." (lib/base: base/ and
#           clusterfit/; lib/model, lib/catalog: base/, their own folder,
#           clusterfit/; lib/plan: base, model, catalog, plan; lib/audit:
#           base, model, audit; lib/probe: base, probe; a header without a folder is the file's own
#           folder's); src/ and server/ only clusterfit/ headers and their
#           own folder's, and src/cmd_serve.c also serve.h, the one header
#           the server publishes; no "../" anywhere; only lib/catalog/
#           includes <sqlite3.h>; no lib/ file includes <mpi.h> or
#           <microhttpd.h>. Public headers' own includes are not
#           followed: a line counts only where it is written;
#  prefix   every global symbol (function or data) defined in ARCHIVE
#           (default ROOT/build/libclusterfit.a; skipped when that does not
#           exist and none was named) starts with cf_ (cf__ for internal
#           ones), read with nm; names the compiler makes (__asan_...) aside;
#  length   functions over 100 lines in lib/ src/ server/ (from the line with
#           the name to the closing brace) are listed as warnings; they do
#           not fail.
#
# Each violation prints "FAIL: checksrc: FILE:LINE: what"; one check is one
# rule on one file (or on one member of the archive). Prints "checksrc: N
# passed, N failed" and exits 1 when any check failed.
set -u
ROOT=${1:-$(cd "$(dirname "$0")/.." && pwd)}
ARCHIVE=${2:-}
MAXLEN=100
cd "$ROOT" || { echo "checksrc: cannot enter $ROOT"; exit 2; }
if [ -z "$ARCHIVE" ] && [ -f build/libclusterfit.a ]; then ARCHIVE=build/libclusterfit.a; fi
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM

list() {
    for d in "$@"; do
        [ -d "$d" ] && find "$d" -type f \( -name '*.c' -o -name '*.h' \)
    done | sort
}
list lib src server > "$TMP/code"
list lib src server tests/unit tests/fuzz > "$TMP/banned"
# The headers of src/ and server/ (their files may include these by name).
own=$(cd "$ROOT" && for d in src server; do [ -d $d ] && find $d -maxdepth 1 -name '*.h'; done | tr '\n' ' ')

pass=0; fail=0

# --- banned calls: code only (comments, strings and character constants
# blanked, lines kept) ------------------------------------------------------
if [ -s "$TMP/banned" ]; then
    # shellcheck disable=SC2046
    awk '
    function report(name,   fix) {
        fix = "snprintf, or memcpy with a length check"
        if (name == "sprintf") fix = "snprintf"
        else if (name == "vsprintf") fix = "vsnprintf"
        else if (name == "sscanf" || name == "atoi" || name == "atol") fix = "strtol/strtod (cf_parse_long, cf_parse_double)"
        else if (name == "strtok") fix = "strtok_r or strcspn"
        else if (name == "gets") fix = "fgets"
        printf "FAIL: checksrc: %s:%d: banned call %s(); use %s\n", FILENAME, FNR, name, fix
        bad[FILENAME] = 1
    }
    FNR == 1 { incomment = 0; seen[FILENAME] = 1; order[++nf] = FILENAME }
    {
        line = $0; out = ""; n = length(line); i = 1
        while (i <= n) {
            c = substr(line, i, 1); c2 = substr(line, i, 2)
            if (incomment) {
                if (c2 == "*/") { incomment = 0; out = out "  "; i += 2 } else { out = out " "; i++ }
                continue
            }
            if (c2 == "/*") { incomment = 1; out = out "  "; i += 2; continue }
            if (c2 == "//") break
            if (c == "\"" || c == "\047") {
                q = c; out = out q; i++
                while (i <= n) {
                    c = substr(line, i, 1)
                    if (c == "\\") { out = out "  "; i += 2; continue }
                    if (c == q) break
                    out = out " "; i++
                }
                out = out q; i++
                continue
            }
            out = out c; i++
        }
        rest = out
        while (match(rest, /(^|[^A-Za-z0-9_])(sprintf|vsprintf|strcpy|strcat|strncat|strncpy|sscanf|atoi|atol|strtok|gets)[ \t]*\(/)) {
            m = substr(rest, RSTART, RLENGTH)
            sub(/^[^A-Za-z]/, "", m); sub(/[ \t]*\($/, "", m)
            report(m)
            rest = substr(rest, RSTART + RLENGTH)
        }
    }
    END { for (k = 1; k <= nf; k++) print (bad[order[k]] ? "BAD" : "OK"), order[k] > "/dev/stderr" }
    ' $(cat "$TMP/banned") 2> "$TMP/banned.res"
    pass=$((pass + $(grep -c '^OK ' "$TMP/banned.res")))
    fail=$((fail + $(grep -c '^BAD ' "$TMP/banned.res")))
fi

# --- includes ----------------------------------------------------------------
if [ -s "$TMP/code" ]; then
    # shellcheck disable=SC2046
    awk -v own=" $own " '
    function bad(msg) {
        printf "FAIL: checksrc: %s:%d: %s\n", FILENAME, FNR, msg
        isbad[FILENAME] = 1
    }
    function allowed(sub_,   a) {
        if (sub_ == "base") return " base clusterfit "
        if (sub_ == "model") return " base model clusterfit "
        if (sub_ == "catalog") return " base catalog clusterfit "
        if (sub_ == "plan") return " base model catalog plan clusterfit "
        if (sub_ == "audit") return " base model audit clusterfit "
        if (sub_ == "probe") return " base probe clusterfit "
        return ""
    }
    FNR == 1 {
        order[++nf] = FILENAME
        n = split(FILENAME, part, "/")
        top = part[1]; folder = (top == "lib" && n >= 3) ? part[2] : top
        base = part[n]
    }
    /^[ \t]*#[ \t]*include[ \t]*</ {
        if ($0 ~ /<sqlite3\.h>/ && !(top == "lib" && folder == "catalog"))
            bad("<sqlite3.h> is included only in lib/catalog/")
        if ($0 ~ /<(mpi|microhttpd)\.h>/ && top == "lib")
            bad("libclusterfit never depends on MPI or libmicrohttpd (" $0 ")")
        next
    }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
        inc = $0
        sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", inc); sub(/".*$/, "", inc)
        if (inc ~ /(^|\/)\.\.\//) { bad("#include \"" inc "\": no \"../\" includes; use the include paths"); next }
        if (top == "lib") {
            ok = allowed(folder)
            if (ok == "") { bad("lib/" folder "/ has no include rule (add one to tools/checksrc.sh)"); next }
            from = (inc ~ /\//) ? substr(inc, 1, index(inc, "/") - 1) : folder
            if (index(ok, " " from " ") == 0) {
                gsub(/^ | $/, "", ok); gsub(/ /, ", ", ok)
                bad("lib/" folder "/ may not include \"" inc "\" (only " ok ")")
            }
            next
        }
        if (inc ~ /^clusterfit\/[^\/]+$/) next
        if (inc !~ /\// && index(own, " " top "/" inc " ") > 0) next
        if (top == "src" && base == "cmd_serve.c" && inc == "serve.h") next
        bad(top "/ may include only clusterfit/ headers and its own (\"" inc "\" is neither)" \
            (top == "src" ? "; the server publishes serve.h to src/cmd_serve.c only" : ""))
    }
    END { for (k = 1; k <= nf; k++) print (isbad[order[k]] ? "BAD" : "OK"), order[k] > "/dev/stderr" }
    ' $(cat "$TMP/code") 2> "$TMP/inc.res"
    pass=$((pass + $(grep -c '^OK ' "$TMP/inc.res")))
    fail=$((fail + $(grep -c '^BAD ' "$TMP/inc.res")))
fi

# --- prefix: the archive's global symbols -------------------------------------
if [ -n "$ARCHIVE" ]; then
    if ! nm -A -g --defined-only "$ARCHIVE" > "$TMP/nm" 2> "$TMP/nm.err"; then
        echo "FAIL: checksrc: $ARCHIVE: cannot read its symbols: $(head -n 1 "$TMP/nm.err")"
        fail=$((fail + 1))
    else
        # "ARCHIVE:member.o:ADDR T name" (or "ARCHIVE:member.o: U name").
        awk '{ split($1, p, ":"); m = p[2]; t = $(NF - 1); s = $NF
               if (!(m in seen)) { seen[m] = 1; order[++n] = m }
               # Names the compiler makes (sanitizers: __asan_..., __odr_...)
               # are the implementation namespace, not the library one.
               if (t ~ /^[TDBRVWG]$/ && s !~ /^cf_/ && s !~ /^__/ && s !~ /\./) print m, t, s }
             END { for (k = 1; k <= n; k++) print "MEMBER", order[k] > "/dev/stderr" }' \
            "$TMP/nm" > "$TMP/nm.bad" 2> "$TMP/nm.members"
        members=$(grep -c '^MEMBER ' "$TMP/nm.members")
        badm=$(awk '{print $1}' "$TMP/nm.bad" | sort -u | grep -c .)
        while read -r m t s; do
            what=function; [ "$t" = T ] || [ "$t" = W ] || what=variable
            src=$(find lib -name "${m%.o}.c" 2>/dev/null | head -n 1)
            at=""
            if [ -n "$src" ]; then
                at=$(grep -n -E "^[A-Za-z_].*[^A-Za-z0-9_]${s}[[:space:]]*(\(|\[|=|;)|^${s}[[:space:]]*\(" "$src" |
                     head -n 1 | cut -d: -f1)
            fi
            if [ -n "$at" ]; then loc="$src:$at"; else loc="$ARCHIVE($m)"; fi
            echo "FAIL: checksrc: $loc: global $what $s does not start with cf_ (make it static, or name it cf_/cf__)"
        done < "$TMP/nm.bad"
        pass=$((pass + members - badm))
        fail=$((fail + badm))
    fi
else
    echo "checksrc: no build/libclusterfit.a: the prefix rule is not checked"
fi

# --- length: functions over MAXLEN lines (warnings) -----------------------------
long=0
if [ -s "$TMP/code" ]; then
    # shellcheck disable=SC2046
    awk -v max="$MAXLEN" '
    FNR == 1 { sig = 0; infn = 0 }
    !infn && /^[A-Za-z_]/ && /\(/ && !/;[ \t]*$/ && !/^(typedef|struct|enum|union)[ \t]/ { sig = FNR; sigtext = $0 }
    !infn && /^\{/ && sig { infn = 1; start = sig; name = sigtext }
    infn && /^\}/ {
        infn = 0
        len = FNR - start + 1
        if (len > max) {
            sub(/\(.*/, "", name); sub(/.*[ \t*]/, "", name)
            printf "checksrc: warning: %s:%d: %s() is %d lines (over %d)\n", FILENAME, start, name, len, max
        }
        sig = 0
    }' $(grep '\.c$' "$TMP/code") > "$TMP/long"
    cat "$TMP/long"
    long=$(grep -c . "$TMP/long")
fi
[ "$long" -gt 0 ] && echo "checksrc: $long function(s) over $MAXLEN lines (warnings, listed above)"

echo "checksrc: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
