/* codes.c — the probe's finding codes (probe/codes.def) as one table, the
 * one way a finding is added, and the status a findings array gives. */
#include <stdarg.h>
#include <stdio.h>
#include "base/base.h"
#include "probe/probe_int.h"

static const struct {
    const char *name;
    cf_severity sev;
    const char *action;
} codes[] = {
#define CF__PROBE_CODE(name, sev, action) {#name, CF_SEV_##sev, action},
#include "probe/codes.def"
#undef CF__PROBE_CODE
};

const char *cf__probe_code_name(cf__probe_code c) { return codes[c].name; }

cf_severity cf__probe_code_severity(cf__probe_code c) { return codes[c].sev; }

const char *cf__probe_code_action(cf__probe_code c) { return codes[c].action; }

int cf__probe_add_finding(json_t *findings, cf__probe_code c, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    json_t *o;
    int bad = 0;
    if (!findings) return -1;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* What the message quotes may come from another node's report, and a
     * piece cut to its buffer may end in half a character: never refuse
     * the finding for it (jansson takes UTF-8 only), show such bytes as
     * '?', as control bytes. */
    cf__text_repair(msg);
    o = json_object();
    bad |= cf__json_set(o, "code", json_string(codes[c].name));
    bad |= cf__json_set(o, "severity", json_string(cf_severity_name(codes[c].sev)));
    bad |= cf__json_set(o, "message", json_string(msg));
    bad |= cf__json_set(o, "action", json_string(codes[c].action));
    if (bad || json_array_append_new(findings, o) != 0) return -1;
    return 0;
}

/* The verdict of a findings array, as the audit's (issue 23): failed on an
 * error, warning on a warning, and unjudged -- never ok -- when nothing is
 * wrong but FACTS_UNKNOWN says a fact a check needs could not be read. */
static cf_audit_status status_of(const json_t *findings)
{
    cf_audit_status st = CF_AUDIT_OK;
    size_t i;
    json_t *f;
    json_array_foreach(findings, i, f) {
        const char *sev = json_string_value(json_object_get(f, "severity"));
        const char *code = json_string_value(json_object_get(f, "code"));
        cf_severity s;
        if (code && strcmp(code, codes[CF__PCODE_FACTS_UNKNOWN].name) == 0 && st < CF_AUDIT_UNJUDGED)
            st = CF_AUDIT_UNJUDGED;
        if (!sev || cf_severity_parse(sev, &s) != CF_OK) continue;
        if (s == CF_SEV_ERROR && st < CF_AUDIT_FAILED) st = CF_AUDIT_FAILED;
        else if (s == CF_SEV_INVALID) st = CF_AUDIT_INVALID;
        else if (s == CF_SEV_WARNING && st < CF_AUDIT_WARNING) st = CF_AUDIT_WARNING;
    }
    return st;
}

const char *cf__probe_status_of(const json_t *findings)
{
    return cf_audit_status_name(status_of(findings));
}

cf_audit_status cf_probe_status(const json_t *report)
{
    const json_t *f = json_object_get(report, "findings");
    if (!json_is_array(f)) return CF_AUDIT_INVALID;
    return status_of(f);
}
