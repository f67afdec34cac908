/* cmd_show.c — `clusterfit show ID`: every field of one offering, where it
 * comes from (shipped data or the user's import, and the source URLs) and
 * how old the facts are, relative to CLUSTERFIT_NOW (cli_ctx.now) or today.
 * JSON: the offering as `list --format json` gives it, plus age_days (of
 * as_of) and price_age_days (of the price's date: price_as_of, else as_of;
 * null without a price), as GET /api/offerings gives them. */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "cli.h"
#include "textfmt.h"
#include "opts.h"

typedef struct show_args {
    cli_format fmt;
} show_args;

static const cli_opt show_opts[] = {
    {.name = "format", CLI_FORMAT_AT(show_args, fmt), .metavar = "F",
     .formats = FMT_TEXT | FMT_JSON, .help = "text (default) or json (the offering, age_days, price_age_days)"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd show_cmd = {
    .cmd = "show",
    .usage = "Usage: clusterfit show ID [--format text|json]\n"
             "Show every field of one offering, its sources and the age of its facts\n"
             "(relative to $CLUSTERFIT_NOW when set, else today).\n"
             "\n",
    .opts = show_opts,
    .col = 15,
};

/* "121 days" -> "4 months old": days under 45, months (of 30.44 days,
 * rounded) under two years, else years with one decimal. */
static void age_text(long days, char *buf, size_t n)
{
    if (days < 0)
        snprintf(buf, n, "dated %ld day%s after today", -days, days == -1 ? "" : "s");
    else if (days < 45)
        snprintf(buf, n, "%ld day%s old", days, days == 1 ? "" : "s");
    else if (days < 730) {
        long m = lround((double)days / 30.4375);
        snprintf(buf, n, "%ld month%s old", m, m == 1 ? "" : "s");
    } else
        snprintf(buf, n, "%.1f years old", (double)days / 365.25);
}

/* Labels with units for the text form. */
static const char *unit_of(int col)
{
    switch (col) {
    case 5: return "GB";
    case 8: return "Gbit/s";
    case 18: return "h";
    case 19: return "s";
    default: return NULL;
    }
}

/* "2.0 years old, 729 days": age_text, with the days when it counts in
 * months or years. */
static void age_days_text(long days, char *buf, size_t n)
{
    age_text(days, buf, n);
    if (days >= 45 && strlen(buf) < n)
        snprintf(buf + strlen(buf), n - strlen(buf), ", %ld days", days);
}

/* The provider's facts (data/providers.csv) under the offering's. */
static void print_provider(const json_t *f)
{
    const json_t *r = json_object_get(f, "rating");
    size_t i;
    json_t *v;
    printf("\nProvider %s (data/providers.csv, as of %s):\n",
           json_string_value(json_object_get(f, "provider")),
           json_string_value(json_object_get(f, "as_of")));
    printf("  %-24s %s\n", "multinode", json_string_value(json_object_get(f, "multinode"))
                                            ? json_string_value(json_object_get(f, "multinode"))
                                            : "unknown");
    printf("  %-24s ", "provisioning");
    if (!json_array_size(json_object_get(f, "provisioning"))) fputs("unknown", stdout);
    json_array_foreach(json_object_get(f, "provisioning"), i, v)
        printf("%s%s", i ? ", " : "", json_string_value(v));
    putchar('\n');
    if (json_is_object(r))
        printf("  %-24s %s (%s)\n", "rating",
               json_string_value(json_object_get(f, "rating_text")),
               json_string_value(json_object_get(r, "source_url")));
    else
        printf("  %-24s none known\n", "rating");
}

/* "  name    value" with the value wrapped at TF_WIDTH under itself, each of
 * its lines (notes hold newlines) a paragraph of its own (issue 23: notes
 * ran to 266 columns). */
static void show_wrapped(const char *name, char *text)
{
    char lead[64];
    snprintf(lead, sizeof lead, "  %-24s ", name);
    for (char *p = text;;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = '\0';
        tf_wrap(stdout, lead, p, TF_WIDTH);
        if (!nl) break;
        *nl = '\n';
        p = nl + 1;
        snprintf(lead, sizeof lead, "  %-24s ", "");
    }
}

static int print_text(const cf_offering *o, long days, int have_age, long price_days, int have_price_age)
{
    char *buf = malloc(CF_MAX_FIELD_BYTES * 2), age[64] = "", price_age[80] = "";
    if (!buf) return EXIT_INTERNAL;
    if (have_age) age_text(days, age, sizeof age);
    if (have_price_age) age_days_text(price_days, price_age, sizeof price_age);
    printf("%s: %s, %s\n\n", o->id, o->provider, o->offering);
    for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
        const char *name = cf_offering_column_name(c);
        if (c == 27) continue; /* sources are listed below */
        if (cf_offering_column_unknown(o, c)) {
            printf("  %-24s unknown\n", name);
            continue;
        }
        cf_offering_column_text(o, c, buf, CF_MAX_FIELD_BYTES * 2);
        if (c == 20 || c == 21 || c == 30)
            printf("  %-24s %s %s per GPU-hour%s\n", name, buf, o->currency,
                   o->price_overlay && c != 21 ? " (from your price import)" : "");
        else if (c == 28 && have_age)
            printf("  %-24s %s (%s)\n", name, buf, age);
        else if (have_price_age && strcmp(name, "price_as_of") == 0) /* how old the prices are */
            printf("  %-24s %s (%s)\n", name, buf, price_age);
        else if (c == 16 || c == 17 || c == 23 || c == 24) { /* sets: ", " reads better */
            printf("  %-24s ", name);
            for (const char *p = buf; *p; p++) fputs(*p == ';' ? ", " : (char[]){*p, 0}, stdout);
            putchar('\n');
        } else if (unit_of(c))
            printf("  %-24s %s %s\n", name, buf, unit_of(c));
        else            /* notes may hold newlines; every value wraps at 80 columns */
            show_wrapped(name, buf);
    }
    printf("  %-24s %s\n", "origin",
           o->user_row ? "user (clusterfit import)" : "shipped (data/offerings.csv)");
    printf("  %-24s %s\n", "price_source", o->price_source ? o->price_source : "no price");
    printf("\nSources (facts as of %s%s%s):\n", o->as_of, have_age ? ", " : "", age);
    for (const char *p = o->source_url; p && *p;) {
        size_t len = strcspn(p, ";");
        printf("  %.*s\n", (int)len, p);
        p += len;
        while (*p == ';' || *p == ' ') p++;
    }
    free(buf);
    return EXIT_OK;
}

int cmd_show(const cli_ctx *ctx, int argc, char **argv)
{
    show_args a = {FMT_TEXT};
    cf_catalog *cat = NULL;
    cf_offering *o = NULL;
    json_t *facts = NULL;
    char now[16];
    long days = 0, price_days = 0;
    int first, rc, have_age, have_price_age;
    cf_status st;

    if ((first = cli_opts_parse(&show_cmd, argc, argv, &a, &rc)) < 0) return rc;
    if (first >= argc) return cli_usage_error("show", "which offering? give its ID (see 'clusterfit list')");
    if (first + 1 < argc) return cli_usage_error("show", "unexpected argument '%s'", argv[first + 1]);
    if (cli_today(ctx, now, sizeof now) != 0)
        return cli_usage_error("show", "CLUSTERFIT_NOW: expected a date YYYY-MM-DD, got \"%s\"",
                               ctx->now ? ctx->now : "");
    rc = cli_open_catalog(ctx, "show", &cat);
    if (rc != EXIT_OK) return rc;
    st = cf_catalog_get(cat, argv[first], &o);
    if (st == CF_ENOTFOUND) {
        cli_catalog_note("show", cat);
        cf_catalog_close(cat);
        return cli_usage_error("show", "no offering with id '%s' (see 'clusterfit list')", argv[first]);
    }
    if (st != CF_OK) {
        rc = cli_catalog_error("show", cat, st);
        cf_catalog_close(cat);
        return rc;
    }
    if (cf_catalog_provider_get(cat, o->provider, &facts) != CF_OK) facts = NULL;
    have_age = cf_age_days(o->as_of, now, &days) == CF_OK;
    have_price_age = o->price_as_of && cf_age_days(o->price_as_of, now, &price_days) == CF_OK;
    if (a.fmt == FMT_JSON) {
        json_t *j = cf_offering_to_json(o);
        long pdays = 0;
        int priced = !isnan(o->price_on_demand_gpu_hr) || !isnan(o->price_reserved_gpu_hr) ||
                     !isnan(o->price_spot_gpu_hr);
        int have_pdays = priced && cf_age_days(o->price_as_of ? o->price_as_of : o->as_of, now, &pdays) == CF_OK;
        if (j && (json_object_set_new(j, "age_days", have_age ? json_integer(days) : json_null()) != 0 ||
                  json_object_set_new(j, "price_age_days", have_pdays ? json_integer(pdays) : json_null()) != 0 ||
                  json_object_set(j, "provider_facts", facts ? facts : json_null()) != 0)) {
            json_decref(j);
            j = NULL;
        }
        rc = cli_print_json(j);
    } else {
        rc = print_text(o, days, have_age, price_days, have_price_age);
        if (rc == EXIT_OK && facts) print_provider(facts);
    }
    json_decref(facts);
    cf_offering_free(o);
    cf_catalog_close(cat);
    return rc;
}
