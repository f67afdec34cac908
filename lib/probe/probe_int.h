/* probe_int.h — what the files of lib/probe/ share: the host tree reader
 * (sysroot paths, capped reads, sorted directory listings, links resolved
 * inside the tree), the node facts as read, the PCI path classification,
 * and the finding codes of probe/codes.def. Not installed; cf__ names. */
#ifndef CLUSTERFIT_PROBE_INT_H
#define CLUSTERFIT_PROBE_INT_H

#include <stddef.h>
#include <jansson.h>
#include "clusterfit/probe.h"
#include "clusterfit/limits.h"

/* ------------------------------------------------------ finding codes */
typedef enum cf__probe_code {
#define CF__PROBE_CODE(name, sev, action) CF__PCODE_##name,
#include "probe/codes.def"
#undef CF__PROBE_CODE
    CF__PCODE__COUNT
} cf__probe_code;

const char *cf__probe_code_name(cf__probe_code c);
cf_severity cf__probe_code_severity(cf__probe_code c);
const char *cf__probe_code_action(cf__probe_code c);

/* Appends {code, severity, message, action} to the array `findings`; the
 * message is printf-formatted. -1 on ENOMEM (or a NULL array), else 0. */
int cf__probe_add_finding(json_t *findings, cf__probe_code c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The "status" word of a findings array (ok, warning, failed). */
const char *cf__probe_status_of(const json_t *findings);

/* --------------------------------------------------------- host tree */

/* Longest path the probe builds (sysroot + a sysfs path). */
#define CF__PROBE_PATH 1024

/* The tree being read and what went wrong in it. */
typedef struct cf__tree {
    char root[CF__PROBE_PATH];  /* the sysroot's real path, "" for "/" */
    json_t *skipped;            /* [{path, reason}]: entries skipped */
    int oom;                    /* an allocation failed somewhere */
} cf__tree;

/* Records a skipped entry (path as the host names it). */
void cf__tree_skip(cf__tree *t, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Reads the small file at host path `path` (read under the root), at most
 * CF_MAX_PROBE_FILE_BYTES, trailing blanks and newlines cut, into out (cap
 * bytes, cut to fit). 1 when read; 0 when absent (nothing recorded); -1
 * when it exists but cannot be read (recorded in skipped unless quiet). */
int cf__tree_read(cf__tree *t, const char *path, char *out, size_t cap, int quiet);

/* The whole file (binary safe) into *buf (cf__free), *len bytes, capped as
 * above. 1 read, 0 absent, -1 unreadable (recorded). */
int cf__tree_slurp(cf__tree *t, const char *path, char **buf, size_t *len);

/* 1 when the host path exists (lstat: a dangling link exists). */
int cf__tree_exists(cf__tree *t, const char *path);

/* The entries of the host directory `path` ("." and ".." left out), sorted
 * by name, at most CF_MAX_PROBE_ENTRIES (more are recorded in skipped):
 * *names is a cf__malloc'd array of cf__malloc'd strings, freed with
 * cf__tree_names_free. Returns the count; 0 when absent or empty, -1 when
 * unreadable (recorded). */
long cf__tree_list(cf__tree *t, const char *path, char ***names);
void cf__tree_names_free(char **names, long n);

/* The host path that `path` resolves to (links followed inside the tree)
 * into out: "/sys/devices/pci0000:15/.../0000:18:00.0". 1 on success; 0
 * when absent; -1 when it leaves the tree or cannot be resolved
 * (recorded). */
int cf__tree_resolve(cf__tree *t, const char *path, char *out, size_t cap);

/* ------------------------------------------------------ PCI paths */

/* GPU-NIC path kinds, best first, as nvidia-smi topo -m names them. */
typedef enum cf__pci_path {
    CF__PATH_PIX = 0,   /* at most one PCIe switch between them */
    CF__PATH_PXB,       /* several PCIe switches, no host bridge */
    CF__PATH_PHB,       /* through a PCIe host bridge (the CPU's root complex) */
    CF__PATH_NODE,      /* between host bridges of one NUMA node */
    CF__PATH_SYS,       /* across the SMP interconnect between NUMA nodes */
    CF__PATH_UNKNOWN
} cf__pci_path;

/* "PIX" ... "SYS", "unknown". */
const char *cf__pci_path_name(cf__pci_path p);

/* The path between two PCI functions from their resolved sysfs paths
 * (cf__tree_resolve of /sys/bus/pci/devices/BDF) and NUMA nodes (-1 =
 * unknown). The chain of a device is its "pciDDDD:BB" root and the
 * DDDD:BB:DD.F components after it: a different root is NODE (same NUMA
 * node, or either unknown) or SYS; a shared root with no shared bridge is
 * PHB; else PIX when each device is at most two components below the
 * deepest shared one (sibling ports of one switch), PXB otherwise.
 * UNKNOWN when either path has no PCI root. */
cf__pci_path cf__pci_path_between(const char *a, int numa_a, const char *b, int numa_b);

/* The bridges on the path between a and b (the components of each chain
 * below the deepest shared one, endpoints left out, and the shared one):
 * up to max BDF strings copied into out[i] (16 bytes each). Returns the
 * count. */
size_t cf__pci_bridges_between(const char *a, const char *b, char (*out)[16], size_t max);

/* 1 when s is a PCI function address "DDDD:BB:DD.F" (hex digits). */
int cf__is_bdf(const char *s);

/* ACS control of a PCI config space (the sysfs `config` file's bytes):
 * 1 when the ACS extended capability (ID 0x000D) has P2P Request Redirect
 * or Completion Redirect set (PCIe base spec, ACS Control Register bits 2
 * and 3), 0 when present without them or absent, -1 when the extended
 * space is not there (len <= 256: what a non-root reader gets). */
int cf__acs_redirects(const unsigned char *cfg, size_t len);

/* ---------------------------------------------------- RDMA sysfs words */

/* "4: ACTIVE" -> "active"; "5: LinkUp" -> "linkup"; lowercases the word
 * after "N: " (the kernel's "%d: %s"). out gets "" when s is empty. */
void cf__sysfs_state_word(const char *s, char *out, size_t cap);

/* "400 Gb/sec (4X NDR)" -> 400; "2.5 Gb/sec (1X SDR)" -> 2.5; NAN when it
 * does not start with a number followed by " Gb/sec". */
double cf__sysfs_rate_gbps(const char *s);

#endif
