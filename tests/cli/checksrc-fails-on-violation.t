# tools/checksrc.sh (run by `make test` over the repository) passes a clean
# tree and fails one with planted violations, naming FILE:LINE of each: a
# banned call, a "../" include, a lib/base file including model/, a
# lib/model file including catalog/ and <sqlite3.h>, a src/ file including
# the server's header, a lib/probe file including <mpi.h> and model/, and
# a global symbol without cf_ in the archive.
# Comments and strings that mention banned calls are not calls; a function
# over 100 lines is a warning, not a failure.
W=$T/tree
mkdir -p "$W/lib/base" "$W/lib/model" "$W/src" "$W/server"
cat > "$W/src/ok.h" <<'X'
int ok(void);
X
cat > "$W/src/good.c" <<'X'
#include <stdio.h>
#include "clusterfit/status.h"
#include "ok.h"
/* never strcpy(a, b) nor sprintf(buf, ...) here: snprintf */
static const char *s = "strcat(x, y) atoi(";
static const char q = '"';
static int f(char *b, size_t n) { return snprintf(b, n, "%s", s) + q; }
X
cat > "$W/src/cmd_serve.c" <<'X'
#include "serve.h"
X
{
    echo '#include "base/base.h"'
    echo 'int cf__long(int x)'
    echo '{'
    i=0; while [ $i -lt 105 ]; do echo '    x += 1;'; i=$((i + 1)); done
    echo '    return x;'
    echo '}'
} > "$W/lib/base/long.c"
printf 'int cf_ok(void) { return 0; }\n' > "$W/lib/base/pfx.c"
${CC:-cc} -c -o "$W/pfx.o" "$W/lib/base/pfx.c" && ar rcs "$W/libx.a" "$W/pfx.o" || fail "cannot build the test archive"

sh "$ROOT/tools/checksrc.sh" "$W" "$W/libx.a" > "$T/out" 2> "$T/err"; RC=$?
expect_rc 0
expect_out "checksrc: 11 passed, 0 failed"
expect_out "checksrc: warning: lib/base/long.c:2: cf__long() is 109 lines (over 100)"
expect_no_out "FAIL"

# The violations.
printf '#include <string.h>\nvoid f(char *a, const char *b)\n{\n    strcpy(a, b);\n}\n' > "$W/src/bad.c"
printf '#include <stdio.h>\n#include "../src/cli.h"\n' > "$W/server/bad.c"
printf '/* base */\n#include "base/base.h"\n#include "clusterfit/status.h"\n#include "model/model_int.h"\n' > "$W/lib/base/bad.c"
printf '#include "catalog/catalog_int.h"\n#include <sqlite3.h>\n#include "model/model_int.h"\n' > "$W/lib/model/bad.c"
printf '#include "serve.h"\n' > "$W/src/other.c"
mkdir -p "$W/lib/probe"
printf '#include <mpi.h>\n#include "base/base.h"\n#include "probe/probe_int.h"\n#include "model/model_int.h"\n' > "$W/lib/probe/bad.c"
printf 'int cf_ok(void) { return 0; }\n\nint helper(void) { return 1; }\n' > "$W/lib/base/pfx.c"
${CC:-cc} -c -o "$W/pfx.o" "$W/lib/base/pfx.c" && rm -f "$W/libx.a" && ar rcs "$W/libx.a" "$W/pfx.o" \
    || fail "cannot build the test archive"

sh "$ROOT/tools/checksrc.sh" "$W" "$W/libx.a" > "$T/out" 2> "$T/err"; RC=$?
[ "$RC" -ne 0 ] || fail "checksrc passed a tree with violations"
expect_out "FAIL: checksrc: src/bad.c:4: banned call strcpy()"
expect_out "FAIL: checksrc: server/bad.c:2: #include \"../src/cli.h\": no \"../\" includes"
expect_out "FAIL: checksrc: lib/base/bad.c:4: lib/base/ may not include \"model/model_int.h\" (only base, clusterfit)"
expect_out "FAIL: checksrc: lib/model/bad.c:1: lib/model/ may not include \"catalog/catalog_int.h\""
expect_out "FAIL: checksrc: lib/model/bad.c:2: <sqlite3.h> is included only in lib/catalog/"
expect_out "FAIL: checksrc: src/other.c:1: src/ may include only clusterfit/ headers and its own"
expect_out "FAIL: checksrc: lib/base/pfx.c:3: global function helper does not start with cf_"
expect_out "FAIL: checksrc: lib/probe/bad.c:1: libclusterfit never depends on MPI"
expect_out "FAIL: checksrc: lib/probe/bad.c:4: lib/probe/ may not include \"model/model_int.h\""
# Nothing else: the good files stay good, the allowed includes pass.
[ "$(grep -c '^FAIL' "$T/out")" = 9 ] || fail "expected 9 FAIL lines, got $(grep -c '^FAIL' "$T/out")"
expect_no_out "src/good.c"
expect_no_out "lib/model/bad.c:3"
expect_no_out "lib/base/bad.c:2"
expect_no_out "lib/probe/bad.c:2"
expect_no_out "lib/probe/bad.c:3"
expect_out "checksrc: 16 passed, 7 failed"
