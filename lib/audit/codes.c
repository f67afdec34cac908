/* codes.c — the finding codes of codes.def as one table: the name the
 * report prints, the severity each code always has, the usual action.
 * Findings are stored by code (evidence.c takes the severity from here),
 * the report (report.c) and the text (text.c) print name and action. */
#include <string.h>
#include "audit/audit_int.h"

static const struct {
    const char *name;
    cf_severity sev;
    const char *action;
} codes[] = {
#define CF__AUDIT_CODE(name, sev, action) {#name, CF_SEV_##sev, action},
#include "audit/codes.def"
#undef CF__AUDIT_CODE
};

const char *cf__audit_code_name(cf__audit_code c) { return codes[c].name; }

cf_severity cf__audit_code_severity(cf__audit_code c) { return codes[c].sev; }

const char *cf__audit_code_action(cf__audit_code c) { return codes[c].action; }

const char *cf__audit_action_of(const char *name)
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (strcmp(codes[i].name, name) == 0) return codes[i].action;
    return "";
}
