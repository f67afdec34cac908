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

/* Longest host path the probe builds ("/sys/class/infiniband/DEV/ports/N/
 * phys_state": names of at most CF__PROBE_NAME_MAX bytes each) and longest
 * resolved sysfs path it keeps; the bound is CF_MAX_PROBE_PATH_BYTES. */
#define CF__PROBE_PATH ((size_t)CF_MAX_PROBE_PATH_BYTES)
/* A full path: the sysroot's real path then a host path. */
#define CF__PROBE_FULL ((size_t)CF_MAX_PROBE_SYSROOT_BYTES + (size_t)CF_MAX_PROBE_PATH_BYTES + 2)
/* Longest directory entry name read (Linux NAME_MAX). */
#define CF__PROBE_NAME_MAX 255

/* The file access the tree reader goes through: the disk (cf__tree_disk_fs)
 * or a tree held in memory (probe/memfs.c: the fuzz harness reads a tree
 * from its input with no disk at all). Every path handed to an operation
 * is a full path (the root, then a host path). */
typedef struct cf__tree_fs {
    void *ctx;                  /* handed to each operation */
    /* 1 when the entry exists, the last link not followed (lstat) */
    int (*lexists)(void *ctx, const char *p);
    /* The canonical path, links followed (realpath): malloc'd (cf__free);
     * NULL with errno set (ENOENT, ENOTDIR, ELOOP, ENOMEM, ...) */
    char *(*realpath)(void *ctx, const char *p);
    /* What p is, links followed: 'f' regular file, 'd' directory, 'o'
     * anything else; -1 with errno set */
    int (*kind)(void *ctx, const char *p);
    /* A regular file's bytes: cf__read_file's contract */
    cf_status (*read)(void *ctx, const char *p, size_t cap, const char *cap_name, char **buf, size_t *len,
                      cf_error *err);
    /* A directory's entries, "." and ".." included or not: each name is
     * handed to fn (which returns 0 to go on, -1 to stop); 0, or -1 with
     * errno set when it cannot be opened */
    int (*list)(void *ctx, const char *p, int (*fn)(void *arg, const char *name), void *arg);
} cf__tree_fs;

/* The disk (static storage). */
const cf__tree_fs *cf__tree_disk_fs(void);

/* The tree being read and what went wrong in it. */
typedef struct cf__tree {
    const cf__tree_fs *fs;      /* the file access (borrowed) */
    char root[CF_MAX_PROBE_SYSROOT_BYTES + 1];  /* the sysroot's real path, "" for "/" */
    json_t *skipped;            /* [{path, reason}]: entries skipped */
    int oom;                    /* an allocation failed somewhere */
} cf__tree;

/* Records a skipped entry (path as the host names it). Bytes of the path
 * or reason that are not UTF-8 text are shown as '?'. */
void cf__tree_skip(cf__tree *t, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Formats a host path into buf (cap bytes): 0, or -1 when it does not fit
 * (recorded in skipped, the start of it named; buf becomes "", which every
 * cf__tree_ call refuses without recording more): a path is never cut. */
int cf__tree_path(cf__tree *t, char *buf, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Reads the small text file at host path `path` (read under the root), at
 * most CF_MAX_PROBE_FILE_BYTES, trailing blanks and newlines cut, into out
 * (cap bytes). 1 when read; 0 when absent (nothing recorded); -1 when it
 * exists but cannot be read, is not UTF-8 text (a control byte other than
 * tab, CR or LF included) or does not fit in cap bytes (recorded in
 * skipped unless quiet): what is returned is always well-formed UTF-8. */
int cf__tree_read(cf__tree *t, const char *path, char *out, size_t cap, int quiet);

/* The whole file (binary safe) into *buf (cf__free), *len bytes, capped as
 * above. 1 read, 0 absent, -1 unreadable (recorded). */
int cf__tree_slurp(cf__tree *t, const char *path, char **buf, size_t *len);

/* 1 when the host path exists (lstat: a dangling link exists). */
int cf__tree_exists(cf__tree *t, const char *path);

/* The entries of the host directory `path` ("." and ".." left out), sorted
 * by name, at most CF_MAX_PROBE_ENTRIES (more are recorded in skipped); a
 * name that is not UTF-8 text or is longer than CF__PROBE_NAME_MAX is
 * recorded in skipped and left out: *names is a cf__malloc'd array of
 * cf__malloc'd strings, freed with cf__tree_names_free. Returns the count;
 * 0 when absent or empty, -1 when unreadable (recorded). */
long cf__tree_list(cf__tree *t, const char *path, char ***names);
void cf__tree_names_free(char **names, long n);

/* The host path that `path` resolves to (links followed inside the tree)
 * into out: "/sys/devices/pci0000:15/.../0000:18:00.0". 1 on success; 0
 * when absent; -1 when it leaves the tree, cannot be resolved, is not
 * UTF-8 text or does not fit in cap bytes (recorded). */
int cf__tree_resolve(cf__tree *t, const char *path, char *out, size_t cap);

/* Copies at most n bytes of the UTF-8 text src into dst (cap bytes), cut
 * back to a character boundary when it does not fit: never half a
 * character. */
void cf__text_copy(char *dst, size_t cap, const char *src, size_t n);

/* Replaces, in place, every byte of s that is not UTF-8 text (a control
 * byte other than tab, CR and LF included) with '?'. */
void cf__text_repair(char *s);

/* ---------------------------------------------- a tree held in memory */

typedef struct cf__memfs cf__memfs;

/* An empty tree whose root is `root` (an absolute path, "/mem"): the
 * paths added are host paths under it. NULL on ENOMEM. */
cf__memfs *cf__memfs_new(const char *root);
/* Adds one entry at host path `path` (leading '/' optional; "." and ".."
 * components and empty paths are refused): type 'f' a regular file of the
 * len bytes of data, 'l' a symbolic link to data (len bytes), 'd' a
 * directory, 'p' a FIFO (an entry that is neither file nor directory).
 * Parent directories are implied. The first entry for a path wins. 0, or
 * -1 (refused or ENOMEM). */
int cf__memfs_add(cf__memfs *m, char type, const char *path, const char *data, size_t len);
/* The file access over it (valid while m lives; the tree is sorted on
 * first use: add nothing after). */
const cf__tree_fs *cf__memfs_fs(cf__memfs *m);
void cf__memfs_free(cf__memfs *m);

/* cf_probe_node over any file access (fs NULL = the disk). */
cf_status cf__probe_node_fs(const cf_probe_opts *opts, const cf__tree_fs *fs, json_t **out, cf_error *err);

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
