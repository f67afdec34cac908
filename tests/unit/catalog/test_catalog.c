/* test_catalog.c — reading and validating offerings (CSV and JSON), without
 * a database (filters and sort keys: test_filter.c). Every bad input is
 * checked for the exact FILE:LINE:COLUMN and status; positions and values
 * were counted by hand from tests/data/catalog-small.csv and the header of
 * DESIGN §3. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../testutil.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/clusterfit.h"

#define SMALL "tests/data/catalog-small.csv"

static const char HEADER[] =
    "id,provider,offering,gpu,gpus_per_node,gpu_memory_gb,intra_link,network,"
    "network_gbps_per_node,nics_per_node,rdma,gpudirect_rdma,topology,non_blocking,"
    "rail_optimized,max_cluster_gpus,orchestration,provisioning,min_commitment_h,"
    "billing_increment_s,price_on_demand_gpu_hr,price_reserved_gpu_hr,currency,"
    "shared_storage,regions,multinode,notes,source_url,as_of,in_network_reduction,"
    "price_spot_gpu_hr,price_as_of\n";

/* A valid row; cells are replaced by name in bad_row(). */
static const char *const GOOD[CF_OFFERING_NCOLS] = {
    "x-h100", "X", "X H100", "H100-SXM", "8", "80", "nvswitch-nvlink4", "ib", "3200", "8",
    "yes", "yes", "fat tree", "yes", "yes", "1024", "slurm", "on-demand", "0", "3600", "2.5",
    "2", "USD", "weka", "us-east", "yes", "note", "https://example.com/x", "2026-08", "yes",
    "1.25", "2026-09"};

/* HEADER, one good row (line 2), then a row (line 3) whose column `col` is
 * `value`, in a static buffer. */
static const char *bad_row(const char *col, const char *value)
{
    static char buf[8192];
    int idx = cf_offering_column_index(col);
    size_t used;
    assert_true(idx >= 0);
    used = (size_t)snprintf(buf, sizeof buf, "%s", HEADER);
    for (int row = 0; row < 2; row++) {
        for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
            const char *v = GOOD[c];
            if (c == 0 && row == 1) v = "y-h100";
            if (row == 1 && c == idx) v = value;
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", c ? "," : "", v);
        }
        used += (size_t)snprintf(buf + used, sizeof buf - used, "\n");
    }
    return buf;
}

/* Parses text as CSV and checks status, position and message. */
static void expect_error(const char *text, size_t len, cf_status want, long line, long column,
                         const char *message)
{
    cf_offering_list l;
    cf_error err;
    cf_status st = cf_offerings_parse("o.csv", text, len, CF_IMPORT_CSV, NULL, &l, &err);
    if (st != want || err.line != line || err.column != column || !strstr(err.message, message)) {
        char buf[1024];
        print_error("got status %d at %ld:%ld: %s\nwanted %d at %ld:%ld containing: %s\n", st,
                    err.line, err.column, cf_error_format(&err, buf, sizeof buf), want, line,
                    column, message);
        fail();
    }
    assert_string_equal(err.file, "o.csv");
    assert_int_equal(l.n, 0);
    assert_null(l.items);
}

static void expect_cell_error(const char *col, const char *value, const char *message)
{
    const char *t = bad_row(col, value);
    expect_error(t, strlen(t), CF_EPARSE, 3, cf_offering_column_index(col) + 1, message);
}

static void small_catalog_values(void **state)
{
    size_t len;
    char *csv = read_file(SMALL, &len);
    cf_offering_list l;
    cf_error err;
    char buf[256];
    (void)state;
    assert_int_equal(cf_offerings_parse(SMALL, csv, len, CF_IMPORT_CSV, NULL, &l, &err), CF_OK);
    assert_int_equal(l.n, 8);
    /* Row 1. */
    assert_string_equal(l.items[0].id, "testa-h100-ib");
    assert_int_equal(l.items[0].gpus_per_node, 8);
    assert_true(l.items[0].price_on_demand_gpu_hr == 2.49);
    assert_int_equal(l.items[0].orchestration, CF_ORCH_SLURM | CF_ORCH_KUBERNETES);
    assert_int_equal(l.items[0].intra_link, CF_INTRA_NVSWITCH_NVLINK4);
    assert_string_equal(l.items[0].regions, "us-east;eu-west");
    assert_string_equal(l.items[0].notes, "Test row: InfiniBand NDR, GPUDirect RDMA on");
    /* Row 2: 'infiniband' is ib, 'eur' is EUR, two URLs joined by "; ". */
    assert_int_equal(l.items[1].network, CF_NET_IB);
    assert_string_equal(l.items[1].currency, "EUR");
    assert_int_equal(l.items[1].non_blocking, CF_CAP_UNKNOWN);
    assert_string_equal(l.items[1].source_url,
                        "https://example.com/alpha/a100; https://example.com/alpha/pricing");
    /* Row 3: a quoted note over two lines, with doubled quotes. */
    assert_string_equal(l.items[2].notes, "Test row: a note on two lines,\nwith \"quotes\" inside");
    assert_int_equal(l.items[2].gpudirect_rdma, CF_CAP_NO);
    /* Row 6: unknowns. */
    assert_string_equal(l.items[5].id, "testc-h100-unknown");
    assert_true(isnan(l.items[5].network_gbps_per_node));
    assert_int_equal(l.items[5].nics_per_node, -1);
    assert_int_equal(l.items[5].gpudirect_rdma, CF_CAP_UNKNOWN);
    assert_int_equal(l.items[5].orchestration_known, 0);
    assert_null(l.items[5].currency);
    assert_int_equal(l.items[5].multinode, CF_CAP_UNKNOWN);
    /* Row 8: network none, zero NICs. */
    assert_int_equal(l.items[7].network, CF_NET_NONE);
    assert_int_equal(l.items[7].nics_per_node, 0);
    assert_true(l.items[7].network_gbps_per_node == 0);
    assert_string_equal(cf_offering_column_text(&l.items[3], 23, buf, sizeof buf), "lustre;object");
    assert_string_equal(cf_offering_column_text(&l.items[3], 20, buf, sizeof buf), "4");
    assert_string_equal(cf_offering_column_text(&l.items[5], 20, buf, sizeof buf), "");
    cf_offering_list_clear(&l);
    free(csv);
}

static void cell_errors(void **state)
{
    (void)state;
    expect_cell_error("price_on_demand_gpu_hr", "-3",
                      "price_on_demand_gpu_hr: expected a non-negative number, got \"-3\"");
    expect_cell_error("price_reserved_gpu_hr", "0x10", "expected a non-negative number, got \"0x10\"");
    expect_cell_error("gpus_per_node", "8.5", "gpus_per_node: expected a whole number from 1 to 576, got \"8.5\"");
    expect_cell_error("gpus_per_node", "0", "from 1 to 576, got \"0\"");
    expect_cell_error("nics_per_node", "-1", "nics_per_node: expected a whole number from 0 to 1024");
    expect_cell_error("max_cluster_gpus", "4294967296", "max_cluster_gpus: expected a whole number from 1 to 10000000, got \"4294967296\"");
    expect_cell_error("gpu_memory_gb", "unknown", "(unknown is an empty cell in CSV, null in JSON)");
    expect_cell_error("network", "ethernet", "network: expected one of ib, roce, efa");
    expect_cell_error("intra_link", "nvlink", "intra_link: expected one of none, pcie3");
    expect_cell_error("rdma", "maybe", "rdma: expected yes or no");
    expect_cell_error("orchestration", "slurm;raw VMs", "orchestration: expected ';'-separated values of slurm, kubernetes, vm, managed");
    expect_cell_error("shared_storage", ";", "shared_storage: expected ';'-separated values");
    expect_cell_error("as_of", "2026/08", "as_of: expected a date YYYY-MM or YYYY-MM-DD, got \"2026/08\"");
    expect_cell_error("as_of", "2026-13", "as_of: expected a date");
    expect_cell_error("as_of", "2026-02-29", "as_of: expected a date"); /* not a leap year */
    expect_cell_error("as_of", "", "as_of: required, got an empty cell");
    expect_cell_error("source_url", "example.com/x", "source_url: expected one or more http:// or https:// URLs");
    expect_cell_error("source_url", "https://a.example/x; ftp://b", "source_url: expected");
    expect_cell_error("id", "Bad Id", "id: expected a slug");
    expect_cell_error("id", "", "id: required");
    expect_cell_error("provider", "  ", "provider: required, got an empty cell");
    expect_cell_error("currency", "US", "currency: expected an ISO 4217 code");
    expect_cell_error("currency", "", "currency: required when a price is given");
    expect_cell_error("gpu", "H100 SXM", "gpu: expected one of ");
    expect_cell_error("gpu", "H100", "H100-SXM");
    expect_cell_error("notes", "caf\xc3", "notes: invalid UTF-8 at byte 4 of the cell");
    expect_cell_error("notes", "over\xc0\xaflong", "notes: invalid UTF-8 at byte 5");
    expect_cell_error("topology", "a\x01" "b", "topology: control character 0x01 at byte 2");
    expect_cell_error("multinode", "sometimes", "multinode: expected yes or no");
}

static void row_and_header_errors(void **state)
{
    char buf[8192];
    const char *t;
    (void)state;
    /* A NUL byte inside a cell. */
    t = bad_row("provider", "A#B");
    memcpy(buf, t, strlen(t) + 1);
    *strchr(buf, '#') = '\0';
    expect_error(buf, strlen(t), CF_EPARSE, 3, 2, "provider: control character 0x00 at byte 2");
    /* Duplicate id: the second one is reported, with the first's line. */
    snprintf(buf, sizeof buf, "%s", bad_row("id", "x-h100"));
    expect_error(buf, strlen(buf), CF_EPARSE, 3, 1, "id: duplicate id \"x-h100\" (first on line 2)");
    /* Unknown columns are named, at the first one's position. */
    snprintf(buf, sizeof buf, "id,provider,offering,foo,source_url,as_of,bar\n");
    expect_error(buf, strlen(buf), CF_EPARSE, 1, 4, "unknown columns \"foo\", \"bar\" (accepted: id, provider");
    /* A required column missing from the header. */
    snprintf(buf, sizeof buf, "id,provider,offering,gpu\nx,X,X,H100-SXM\n");
    expect_error(buf, strlen(buf), CF_EPARSE, 1, 0, "missing required columns: source_url, as_of");
    snprintf(buf, sizeof buf, "id,provider,id,offering\n");
    expect_error(buf, strlen(buf), CF_EPARSE, 1, 3, "column \"id\" appears twice (first as column 1)");
    /* Too few and too many cells. */
    snprintf(buf, sizeof buf, "id,provider,offering,source_url,as_of\n"
             "a,A,A,https://a.example,2026-01\nb,B,B,https://b.example\n");
    expect_error(buf, strlen(buf), CF_EPARSE, 3, 4, "row has 4 cells, the header has 5");
    snprintf(buf, sizeof buf, "id,provider,offering,source_url,as_of\n"
             "a,A,A,https://a.example,2026-01,extra\n");
    expect_error(buf, strlen(buf), CF_EPARSE, 2, 6, "row has 6 cells, the header has 5");
    /* One cell too many in the middle shifts every later cell: the row is
     * reported for its count, at the first extra cell, not for the shifted
     * cell that fails first (here "extra" landing in rdma, column 11). */
    {
        char row[1024] = "";
        size_t used = 0;
        for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
            used += (size_t)snprintf(row + used, sizeof row - used, "%s%s", c ? "," : "", GOOD[c]);
            if (c == 9) used += (size_t)snprintf(row + used, sizeof row - used, ",extra");
        }
        snprintf(buf, sizeof buf, "%s%s\n", HEADER, row);
        expect_error(buf, strlen(buf), CF_EPARSE, 2, 33, "row has 33 cells, the header has 32");
    }
    /* Too few in the middle: reported as such, not as the shifted cell. */
    snprintf(buf, sizeof buf, "id,provider,offering,network,source_url,as_of\n"
             "a,A,A,https://a.example,2026-01\n");
    expect_error(buf, strlen(buf), CF_EPARSE, 2, 5, "row has 5 cells, the header has 6");
    /* Quoted commas and line breaks are inside one cell: a row whose quoted
     * note spans lines 2-3 has the header's count; an extra cell after it
     * is on line 3, column 7. */
    snprintf(buf, sizeof buf, "id,provider,offering,source_url,as_of,notes\n"
             "a,\"A, Inc.\",A,https://a.example,2026-01,\"two\nlines, quoted\"\n");
    {
        cf_offering_list ok;
        cf_error e;
        assert_int_equal(cf_offerings_parse("o.csv", buf, strlen(buf), CF_IMPORT_CSV, NULL, &ok, &e), CF_OK);
        assert_string_equal(ok.items[0].provider, "A, Inc.");
        assert_string_equal(ok.items[0].notes, "two\nlines, quoted");
        cf_offering_list_clear(&ok);
    }
    snprintf(buf, sizeof buf, "id,provider,offering,source_url,as_of,notes\n"
             "a,\"A, Inc.\",A,https://a.example,2026-01,\"two\nlines, quoted\",extra\n");
    expect_error(buf, strlen(buf), CF_EPARSE, 3, 7, "row has 7 cells, the header has 6");
    /* A bad cell after a multi-line cell is placed on its own line. */
    snprintf(buf, sizeof buf, "id,provider,notes,offering,source_url,as_of\n"
             "a,A,\"two\nlines\",A,https://a.example,2026-1\n");
    expect_error(buf, strlen(buf), CF_EPARSE, 3, 6, "as_of: expected a date");
    /* Quotes. */
    snprintf(buf, sizeof buf, "id,provider,offering,source_url,as_of\n"
             "a,\"A\"x,A,https://a.example,2026-01\n");
    expect_error(buf, strlen(buf), CF_EPARSE, 2, 2, "malformed CSV");
    snprintf(buf, sizeof buf, "id,provider,offering,source_url,as_of\n\n"
             "a,A,\"A,https://a.example,2026-01\nb,B,B,https://b.example,2026-01\n");
    expect_error(buf, strlen(buf), CF_EPARSE, 3, 3, "a quoted cell is not closed");
    /* Empty input. */
    expect_error("", 0, CF_EPARSE, 1, 0, "empty file: expected a header row");
    expect_error("\n\n", 2, CF_EPARSE, 1, 0, "empty file");
}

static void lines_after_a_multiline_cell(void **state)
{
    size_t len;
    char *csv = read_file(SMALL, &len);
    char *p = strstr(csv, "2025-11-30");
    (void)state;
    /* testb-h100-efa starts on line 6: the note of the row before spans lines 4-5. */
    assert_non_null(p);
    p[9] = '1'; /* 2025-11-31 */
    expect_error(csv, len, CF_EPARSE, 6, 29, "as_of: expected a date YYYY-MM or YYYY-MM-DD, got \"2025-11-31\"");
    free(csv);
}

static void limits(void **state)
{
    size_t big = (size_t)CF_MAX_IMPORT_BYTES + 1;
    char *buf = malloc(big);
    size_t used;
    (void)state;
    assert_non_null(buf);
    memset(buf, 'a', big);
    expect_error(buf, big, CF_ELIMIT, 0, 0, "over the 16777216-byte limit");
    used = (size_t)snprintf(buf, big, "id,provider,offering,source_url,as_of\na,A,");
    memset(buf + used, 'n', (size_t)CF_MAX_FIELD_BYTES + 1);
    used += (size_t)CF_MAX_FIELD_BYTES + 1;
    used += (size_t)snprintf(buf + used, big - used, ",https://a.example,2026-01\n");
    expect_error(buf, used, CF_ELIMIT, 2, 3, "offering: cell longer than 8192 bytes");
    free(buf);
}

static void crlf_bom_order_and_optional_columns(void **state)
{
    size_t len, n = 0;
    char *csv = read_file(SMALL, &len);
    char *crlf = malloc(len * 2 + 4);
    cf_offering_list l;
    cf_error err;
    const char *few = "as_of,source_url,offering,provider,id,network,gpu\n"
                      "2026-01,https://a.example,A,Prov,a,roce,h100-sxm\n";
    (void)state;
    memcpy(crlf, "\xEF\xBB\xBF", 3);
    n = 3;
    for (size_t i = 0; i < len; i++) {
        if (csv[i] == '\n') crlf[n++] = '\r';
        crlf[n++] = csv[i];
    }
    assert_int_equal(cf_offerings_parse("crlf.csv", crlf, n, CF_IMPORT_CSV, NULL, &l, &err), CF_OK);
    assert_int_equal(l.n, 8);
    assert_string_equal(l.items[0].id, "testa-h100-ib");
    assert_string_equal(l.items[7].as_of, "2026-11-01");
    assert_string_equal(l.items[2].notes, "Test row: a note on two lines,\r\nwith \"quotes\" inside");
    cf_offering_list_clear(&l);
    assert_int_equal(cf_offerings_parse("few.csv", few, strlen(few), CF_IMPORT_CSV, NULL, &l, &err), CF_OK);
    assert_int_equal(l.n, 1);
    assert_string_equal(l.items[0].provider, "Prov");
    assert_int_equal(l.items[0].network, CF_NET_ROCE);
    assert_int_equal(l.items[0].gpus_per_node, -1);
    assert_string_equal(l.items[0].gpu, "H100-SXM"); /* as data/gpus.csv spells it */
    assert_true(isnan(l.items[0].gpu_memory_gb));
    cf_offering_list_clear(&l);
    /* A header alone is an empty, valid catalog. */
    assert_int_equal(cf_offerings_parse("h.csv", HEADER, strlen(HEADER), CF_IMPORT_CSV, NULL, &l, &err), CF_OK);
    assert_int_equal(l.n, 0);
    cf_offering_list_clear(&l);
    free(crlf);
    free(csv);
}

/* CSV -> JSON (cf_offering_to_json) -> import reads back the same cells. */
static void json_round_trip(void **state)
{
    size_t len;
    char *csv = read_file(SMALL, &len), *text;
    cf_offering_list a, b;
    cf_error err;
    json_t *arr = json_array();
    (void)state;
    assert_int_equal(cf_offerings_parse(SMALL, csv, len, CF_IMPORT_CSV, NULL, &a, &err), CF_OK);
    for (size_t i = 0; i < a.n; i++) json_array_append_new(arr, cf_offering_to_json(&a.items[i]));
    /* JSON shape: sets as arrays, unknown as null, numbers as numbers. */
    assert_true(json_is_array(json_object_get(json_array_get(arr, 0), "orchestration")));
    assert_string_equal(json_string_value(json_array_get(json_object_get(json_array_get(arr, 0), "regions"), 1)), "eu-west");
    assert_true(json_is_null(json_object_get(json_array_get(arr, 5), "price_on_demand_gpu_hr")));
    assert_true(json_is_null(json_object_get(json_array_get(arr, 5), "orchestration")));
    assert_int_equal(json_integer_value(json_object_get(json_array_get(arr, 0), "gpus_per_node")), 8);
    assert_string_equal(json_string_value(json_object_get(json_array_get(arr, 1), "network")), "ib");
    assert_string_equal(json_string_value(json_object_get(json_array_get(arr, 0), "origin")), "shipped");
    /* The derived keys `show` and the API add are read back and ignored. */
    json_object_set_new(json_array_get(arr, 0), "stale", json_true());
    json_object_set_new(json_array_get(arr, 0), "age_days", json_integer(42));
    text = json_dumps(arr, 0);
    assert_int_equal(cf_offerings_parse("rt.json", text, strlen(text), CF_IMPORT_JSON, NULL, &b, &err), CF_OK);
    assert_int_equal(b.n, a.n);
    for (size_t i = 0; i < a.n; i++) {
        for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
            char x[1024], y[1024];
            assert_string_equal(cf_offering_column_text(&a.items[i], c, x, sizeof x),
                                cf_offering_column_text(&b.items[i], c, y, sizeof y));
        }
    }
    free(text);
    json_decref(arr);
    cf_offering_list_clear(&a);
    cf_offering_list_clear(&b);
    free(csv);
}

/* Parses text as JSON and checks status and message, and the position:
 * that of the first occurrence of `at` in text (NULL: line 0, unplaced;
 * "" : line `line`, any column). */
static void expect_json_error(const char *text, cf_status want, const char *at, long line,
                              const char *message)
{
    cf_offering_list l;
    cf_error err;
    long wl = line, wc = -1;
    cf_status st = cf_offerings_parse("o.json", text, strlen(text), CF_IMPORT_JSON, NULL, &l, &err);
    if (at && *at) {
        const char *p = strstr(text, at);
        assert_non_null(p);
        wl = 1;
        wc = 1;
        for (const char *q = text; q < p; q++) {
            if (*q == '\n') { wl++; wc = 1; }
            else if (((unsigned char)*q & 0xc0) != 0x80) wc++;
        }
    }
    if (st != want || err.line != wl || (wc >= 0 && err.column != wc) || !strstr(err.message, message)) {
        print_error("got %d at %ld:%ld: %s\nwanted %d at %ld:%ld: %s\n", st, err.line, err.column,
                    err.message, want, wl, wc, message);
        fail();
    }
    assert_int_equal(l.n, 0);
}

#define J_OK "\"id\":\"a\",\"provider\":\"A\",\"offering\":\"A\",\"source_url\":\"https://a.example\""

static void json_errors(void **state)
{
    (void)state;
    expect_json_error("[{\"id\": \"a\",\n \"provider\": }]", CF_EPARSE, "", 2, "malformed JSON");
    expect_json_error("\n {\"id\": \"a\"}", CF_EPARSE, "{", 0, "expected a JSON array of offerings (objects), got an object");
    expect_json_error("[1]", CF_EPARSE, "1", 0, "offering 1: expected an object, got the number 1");
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\",\"colour\":\"red\"}]",
                      CF_EPARSE, "\"colour\"", 0, "offering 1 (id \"a\"): unknown key \"colour\"");
    /* A value of the wrong type says what the file holds. */
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\",\"gpus_per_node\":\"8\"}]",
                      CF_EPARSE, "\"8\"", 0,
                      "offering 1 (id \"a\"): gpus_per_node: expected a number or null, got the string \"8\"");
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\",\n  \"price_on_demand_gpu_hr\":\"2\"}]",
                      CF_EPARSE, "\"2\"", 0,
                      "price_on_demand_gpu_hr: expected a number or null, got the string \"2\"");
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\",\"rdma\":true}]", CF_EPARSE, "true", 0,
                      "rdma: expected a string or null, got true");
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\",\"orchestration\":\"slurm\"}]",
                      CF_EPARSE, "\"slurm\"", 0,
                      "orchestration: expected an array of strings or null, got the string \"slurm\"");
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\",\"regions\":[\"a\", 7]}]", CF_EPARSE, "7", 0,
                      "regions: expected an array of strings (without ';'), got the number 7 as item 2");
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\",\"regions\":[]}]", CF_EPARSE, "[]", 0,
                      "regions: expected a non-empty array, or null for unknown, got []");
    /* A value of the right type but bad: shown as the file wrote it. */
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\",\"price_on_demand_gpu_hr\":-1}]",
                      CF_EPARSE, "-1", 0, "price_on_demand_gpu_hr: expected a non-negative number, got -1");
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\",\"orchestration\":[\"slurm\",\"pbs\"]}]",
                      CF_EPARSE, "[\"slurm\"", 0,
                      "orchestration: expected ';'-separated values of slurm, kubernetes, vm, managed, got [\"slurm\", \"pbs\"]");
    /* The position of the bad value in the second of three offerings, on
     * its own line, with a multi-byte character before it on that line. */
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\"},\n"
                      " {\"id\":\"b\",\"provider\":\"B\",\"offering\":\"Caf\xc3\xa9\",\"source_url\":\"https://b.example\",\n"
                      "  \"as_of\":\"2026-01\", \"offering\\u0020x\":1},\n"
                      " {\"id\":\"c\",\"provider\":\"C\",\"offering\":\"C\",\"network\":\"infiniband-x\","
                      "\"source_url\":\"https://c.example\",\"as_of\":\"2026-01\"}]",
                      CF_EPARSE, "\"offering\\u0020x\"", 0, "offering 2 (id \"b\"): unknown key \"offering x\"");
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\"},\n"
                      " {\"id\":\"b\",\"provider\":\"Caf\xc3\xa9\",\"offering\":\"B\",\"network\":\"infiniband-x\","
                      "\"source_url\":\"https://b.example\",\"as_of\":\"2026-01\"}]",
                      CF_EPARSE, "\"infiniband-x\"", 0,
                      "offering 2 (id \"b\"): network: expected one of ib, roce, efa, tcpx, tcpxo, tcp, rdma, none (or empty or null for unknown), got \"infiniband-x\"");
    /* An absent required key is placed at its object; a null one at the null. */
    expect_json_error("[{" J_OK ",\"as_of\":null}]", CF_EPARSE, "null", 0,
                      "as_of: required, got null");
    expect_json_error("[{\"id\":\"a\"}, {" J_OK "}]", CF_EPARSE, "{", 0, "provider: required, got no such key");
    /* A price without a currency: at the price when currency is absent. */
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\",\"price_reserved_gpu_hr\":1.5}]",
                      CF_EPARSE, "1.5", 0, "currency: required when a price is given");
    expect_json_error("[{" J_OK ",\"as_of\":\"2026-01\"},{\"id\":\"b\",\"provider\":\"B\",\"offering\":\"B\","
                      "\"source_url\":[\"https://b.example\"],\"as_of\":\"2026-01\"},"
                      "{\"id\":\"a\" ,\"provider\":\"A\",\"offering\":\"A\",\"source_url\":\"https://a.example\","
                      "\"as_of\":\"2026-01\"}]",
                      CF_EPARSE, "\"a\" ,", 0, "offering 3: id: duplicate id \"a\" (first as offering 1)");
    expect_json_error("[{\"id\":\"a\",\"id\":\"b\"}]", CF_EPARSE, "", 1, "duplicate object key");
}

/* An as_of after `today` is rejected at its cell (CSV) or value (JSON);
 * YYYY-MM is its first day, so the current month passes. */
static void future_dates(void **state)
{
    static const char csv[] = "id,provider,notes,offering,source_url,as_of\n"
                              "a,A,,A,https://a.example,2026-11\n"
                              "b,B,\"two\nlines\",B,https://b.example,2026-12-01\n";
    static const char json[] = "[{" J_OK ",\"as_of\":\"2026-11-30\"},\n{\"id\":\"b\",\"provider\":\"B\","
                               "\"offering\":\"B\",\"source_url\":\"https://b.example\",\"as_of\":\"2062-01\"}]";
    cf_import_opts o = {"2026-11-30"};
    cf_offering_list l;
    cf_error err;
    (void)state;
    assert_int_equal(cf_offerings_parse("f.csv", csv, strlen(csv), CF_IMPORT_CSV, &o, &l, &err), CF_EPARSE);
    assert_int_equal(err.line, 4);
    assert_int_equal(err.column, 6);
    assert_string_equal(err.message, "as_of: expected a date no later than today (2026-11-30), got \"2026-12-01\"");
    assert_int_equal(cf_offerings_parse("f.json", json, strlen(json), CF_IMPORT_JSON, &o, &l, &err), CF_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 82); /* counted: the opening quote of "2062-01" */
    assert_non_null(strstr(err.message, "got \"2062-01\""));
    /* Without a today, or with today after both, the dates pass. */
    assert_int_equal(cf_offerings_parse("f.csv", csv, strlen(csv), CF_IMPORT_CSV, NULL, &l, &err), CF_OK);
    cf_offering_list_clear(&l);
    o.today = "2062-01-01";
    assert_int_equal(cf_offerings_parse("f.json", json, strlen(json), CF_IMPORT_JSON, &o, &l, &err), CF_OK);
    assert_int_equal(l.n, 2);
    cf_offering_list_clear(&l);
    o.today = "2026-11";
    assert_int_equal(cf_offerings_parse("f.csv", csv, strlen(csv), CF_IMPORT_CSV, &o, &l, &err), CF_EINVAL);
}

/* Fails the 1st, 2nd, ... allocation of a parse: each run returns CF_ENOMEM
 * with nothing allocated left behind (ASan's leak check in the SAN build),
 * until the parse succeeds. */
static void allocation_failures(void **state)
{
    size_t len;
    char *csv = read_file(SMALL, &len);
    long n;
    (void)state;
    for (int fmt = 0; fmt < 2; fmt++) {
        char *text = csv;
        size_t tlen = len;
        if (fmt == 1) {
            cf_offering_list a;
            cf_error err;
            json_t *arr = json_array();
            assert_int_equal(cf_offerings_parse(SMALL, csv, len, CF_IMPORT_CSV, NULL, &a, &err), CF_OK);
            for (size_t i = 0; i < a.n; i++) json_array_append_new(arr, cf_offering_to_json(&a.items[i]));
            text = json_dumps(arr, 0);
            tlen = strlen(text);
            json_decref(arr);
            cf_offering_list_clear(&a);
        }
        for (n = 0;; n++) {
            cf_offering_list l;
            cf_error err;
            cf_status st;
            cf_alloc_fail_after(n);
            st = cf_offerings_parse("x", text, tlen, (cf_import_format)fmt, NULL, &l, &err);
            cf_alloc_fail_after(-1);
            if (st == CF_OK) {
                assert_int_equal(l.n, 8);
                cf_offering_list_clear(&l);
                break;
            }
            assert_int_equal(st, CF_ENOMEM);
            assert_int_equal(l.n, 0);
            assert_true(n < 100000);
        }
        assert_true(n > 50); /* every cell is copied: there were many points to fail */
        if (fmt == 1) free(text);
    }
    free(csv);
}

/* Issue 13's columns: in-network reduction is a capability, the spot price
 * a price (it needs its currency like the others), price_as_of a date that
 * dates a price, and flex a provisioning mode. */
static void issue13_columns(void **state)
{
    static const char H[] = "id,provider,offering,source_url,as_of,";
    char buf[512];
    cf_offering_list l;
    cf_error err;
    cf_import_opts io = {"2026-12-01"};
    (void)state;
    expect_cell_error("in_network_reduction", "sharp",
                      "in_network_reduction: expected yes or no (or empty for unknown), got \"sharp\"");
    expect_cell_error("price_spot_gpu_hr", "-1",
                      "price_spot_gpu_hr: expected a non-negative number, got \"-1\"");
    expect_cell_error("price_as_of", "2026-13", "price_as_of: expected a date YYYY-MM or YYYY-MM-DD");
    snprintf(buf, sizeof buf, "%sprice_as_of\na,A,A,https://a.example,2026-01,2026-02\n", H);
    expect_error(buf, strlen(buf), CF_EPARSE, 2, 6, "price_as_of: given without a price");
    snprintf(buf, sizeof buf, "%sprice_spot_gpu_hr\na,A,A,https://a.example,2026-01,1.5\n", H);
    expect_error(buf, strlen(buf), CF_EPARSE, 2, 6, "currency: required when a price is given");
    snprintf(buf, sizeof buf, "%sprice_spot_gpu_hr,currency,price_as_of,provisioning,"
             "in_network_reduction\na,A,A,https://a.example,2026-01,1.5,usd,2026-12-02,flex,yes\n", H);
    assert_int_equal(cf_offerings_parse("o.csv", buf, strlen(buf), CF_IMPORT_CSV, &io, &l, &err),
                     CF_EPARSE);
    assert_int_equal(err.column, 8);
    assert_non_null(strstr(err.message, "price_as_of: expected a date no later than today"));
    snprintf(buf, sizeof buf, "%sprice_spot_gpu_hr,currency,price_as_of,provisioning,"
             "in_network_reduction\na,A,A,https://a.example,2026-01,1.5,usd,2026-11-30,"
             "flex;reserved,yes\n", H);
    assert_int_equal(cf_offerings_parse("o.csv", buf, strlen(buf), CF_IMPORT_CSV, &io, &l, &err), CF_OK);
    assert_true(l.items[0].price_spot_gpu_hr == 1.5);
    assert_string_equal(l.items[0].price_as_of, "2026-11-30");
    assert_int_equal(l.items[0].provisioning, CF_PROV_FLEX | CF_PROV_RESERVED);
    assert_int_equal(l.items[0].in_network_reduction, CF_CAP_YES);
    assert_string_equal(cf_offering_column_text(&l.items[0], cf_offering_column_index("provisioning"),
                                                buf, sizeof buf), "reserved;flex");
    cf_offering_list_clear(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_catalog_values),
        cmocka_unit_test(cell_errors),
        cmocka_unit_test(issue13_columns),
        cmocka_unit_test(row_and_header_errors),
        cmocka_unit_test(lines_after_a_multiline_cell),
        cmocka_unit_test(limits),
        cmocka_unit_test(crlf_bom_order_and_optional_columns),
        cmocka_unit_test(json_round_trip),
        cmocka_unit_test(json_errors),
        cmocka_unit_test(future_dates),
        cmocka_unit_test(allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
