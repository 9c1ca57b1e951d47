/* src/base/env_table.h - every environment variable gshmem reads, one row each.
 *
 * X(field, type, name, alias, default, min, max, help)
 *   type: SIZE (bytes, accepts K/M/G/T suffixes), INT, BOOL (0/1, yes/no,
 *         true/false, on/off), STR, SECRET (a STR <a>:<b>:<key> whose key is
 *         never printed); alias is a second accepted name (or NULL).
 * The struct gsi_env, its parser, the range checks, gshmem-info's listing and
 * the README table (tests/unit check it) all come from these rows. */
#ifndef GSI_ENV_TABLE_H
#define GSI_ENV_TABLE_H

#define GSI_ENV_TABLE(X)                                                           \
    X(symmetric_size, SIZE, "SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE", "512M",  \
      1 << 20, 1LL << 40, "bytes of symmetric heap per PE (suffixes K, M, G, T)")  \
    X(debug, BOOL, "SHMEM_DEBUG", "SMA_DEBUG", "0", 0, 1,                          \
      "debug log, and costly checks (allocation symmetry across PEs)")             \
    X(info, BOOL, "SHMEM_INFO", "SMA_INFO", "0", 0, 1,                             \
      "PE 0 prints this table with current values at shmem_init")                 \
    X(version, BOOL, "SHMEM_VERSION", "SMA_VERSION", "0", 0, 1,                    \
      "PE 0 prints the library version at shmem_init")                            \
    X(bootstrap, STR, "GSHMEM_BOOTSTRAP", NULL, "auto", 0, 0,                      \
      "how PEs find each other: auto, pmix, pmi2, uid or single")                 \
    X(uid, SECRET, "GSHMEM_UID", NULL, "none", 0, 0,                               \
      "GSHMEM_BOOTSTRAP=uid: <ip>:<port>:<secret>: where rank 0 listens (it binds it itself), and 32 hex digits only the job's processes know") \
    X(uid_rank, INT, "GSHMEM_UID_RANK", NULL, "-1", -1, 1 << 30,                   \
      "GSHMEM_BOOTSTRAP=uid: this process's rank, 0 to GSHMEM_UID_SIZE-1")        \
    X(uid_size, INT, "GSHMEM_UID_SIZE", NULL, "0", 0, 1 << 30,                     \
      "GSHMEM_BOOTSTRAP=uid: the number of processes")                            \
    X(mpi_plugin, STR, "GSHMEM_BOOTSTRAP_MPI_PLUGIN", NULL, "gshmem_bootstrap_mpi.so", 0, 0, \
      "GSHMEMX_INIT_WITH_MPI_COMM: the MPI plugin, a file name looked for beside libgshmem.so, then in the install's lib folder; or a path") \
    X(uid_timeout, INT, "GSHMEM_UID_TIMEOUT", NULL, "60", 1, 86400,                \
      "seconds the uid bootstrap waits for every rank to arrive (or for rank 0)")  \
    X(uid_ifname, STR, "GSHMEM_UID_IFNAME", NULL, "auto", 0, 0,                    \
      "interface of gshmemx_get_uniqueid's socket (auto: first up non-loopback IPv4, else lo)") \
    X(wait_spin, INT, "GSHMEM_WAIT_SPIN", NULL, "-1", -1, 1 << 30,                 \
      "polls before a wait starts yielding the CPU (-1: by core count)")          \
    X(wait_timeout, INT, "GSHMEM_WAIT_TIMEOUT", NULL, "600", 0, 1 << 30,           \
      "seconds a wait may block before it reports what it waits for and ends the job (0: never)") \
    X(wait_warn, INT, "GSHMEM_WAIT_WARN", NULL, "10", 0, 1 << 30,                  \
      "seconds a wait may block before it says once what it still waits for (0: never)") \
    X(fail_check, INT, "GSHMEM_FAIL_CHECK", NULL, "1", 0, 1 << 30,                 \
      "seconds a wait may block before it looks, once a second, whether every PE waits or finalized (or a node peer died) and then ends the job with one line (0: never)") \
    X(disable_p2p, BOOL, "GSHMEM_DISABLE_P2P", NULL, "0", 0, 1,                    \
      "reach every other PE through the network transport, even on this host")    \
    X(progress_thread, INT, "GSHMEM_PROGRESS_THREAD", NULL, "-1", -1, 1,           \
      "a thread drives the network for remote PEs' operations (-1: when any PE is remote)") \
    X(transport, STR, "GSHMEM_TRANSPORT", NULL, "auto", 0, 0,                      \
      "network transport: auto (verbs where every PE has an active RDMA port, else ucx), ucx, verbs, or node (one host: peers' memory mapped, copies)") \
    X(ucx_am, INT, "GSHMEM_UCX_AM", NULL, "-1", -1, 1,                              \
      "small puts, gets and atomics go as active messages the target applies (-1: to peers UCX reaches with no RMA lane, as over TCP)") \
    X(max_teams, INT, "GSHMEM_MAX_TEAMS", NULL, "64", 3, 64,                        \
      "teams that may exist at once, SHMEM_TEAM_WORLD, _SHARED and SHMEMX_TEAM_NODE included") \
    X(static_symmetric, BOOL, "GSHMEM_STATIC_SYMMETRIC", NULL, "1", 0, 1,          \
      "make the program's global and static data symmetric (remap onto memfd)")  \
    X(coll_p2p, BOOL, "GSHMEM_COLL_P2P", NULL, "1", 0, 1,                          \
      "collectives read and write node peers' memory directly (0: use the network algorithms)") \
    X(bcast_push_max, SIZE, "GSHMEM_BCAST_PUSH_MAX", NULL, "16K", 0, 1LL << 40,   \
      "broadcasts up to this many bytes are pushed by the root into every dest; larger ones are pulled by every member") \
    X(coll_nt_min, SIZE, "GSHMEM_COLL_NT_MIN", NULL, "64M", 0, 1LL << 40,          \
      "collectives that write this many bytes over all members copy with non-temporal stores (0: never)") \
    X(bcast_tree_max, SIZE, "GSHMEM_BCAST_TREE_MAX", NULL, "64K", 0, 1LL << 40,   \
      "network broadcasts up to this many bytes go down a binomial tree; larger ones are scattered, then passed around a ring") \
    X(reduce_scatter_min, SIZE, "GSHMEM_REDUCE_SCATTER_MIN", NULL, "2K", 0, 1LL << 40, \
      "bytes from which reductions and scans split the array among the members (reduce-scatter + all-gather)") \
    X(proxy_channels, INT, "GSHMEM_PROXY_CHANNELS", NULL, "4", 1, 64,              \
      "device API: proxy channels (descriptor rings) for the PEs reached through the network") \
    X(proxy_threads, INT, "GSHMEM_PROXY_THREADS", NULL, "1", 1, 16,                \
      "device API: proxy threads draining the channels (thread k serves channels k, k+T, ...)") \
    X(proxy_ring, INT, "GSHMEM_PROXY_RING", NULL, "16384", 16, 1 << 20,            \
      "device API: descriptors per proxy channel, a power of two")                \
    X(device_wait_timeout, INT, "GSHMEM_DEVICE_WAIT_TIMEOUT", NULL, "300", 0, 1 << 30, \
      "seconds a device-side wait may block before it reports what it waits for and ends the job (0: never)") \
    X(topo, BOOL, "GSHMEM_TOPO", NULL, "1", 0, 1,                                  \
      "place each PE's GPU, NIC, proxy cores and heap by the hwloc topology (0: the GPU by node rank, nothing bound)") \
    X(gpu, STR, "GSHMEM_GPU", NULL, "auto", 0, 0,                                  \
      "GPU of each PE: auto (nearest its cores), none, an index of gshmem-info --topology or a PCI bus id; one for all PEs or one per node PE, /-separated") \
    X(hca, STR, "GSHMEM_HCA", NULL, "auto", 0, 0,                                  \
      "NIC (HCA) of each PE: auto (nearest its GPU, else its cores), none, or <device>[:<port>] (mlx5_0:1); sets UCX_NET_DEVICES unless that is set; one or one per node PE, /-separated") \
    X(proxy_cpus, STR, "GSHMEM_PROXY_CPUS", NULL, "auto", 0, 0,                    \
      "cores of the proxy threads: auto (the GPU's NUMA node's cores no PE is bound to) or a cpu list (0-3,8); one or one per node PE, /-separated") \
    X(heap_numa, STR, "GSHMEM_HEAP_NUMA", NULL, "auto", 0, 0,                      \
      "NUMA node of the host heap's pages: auto (the GPU's, else the PE's cores'), none, or a node number; one or one per node PE, /-separated") \
    X(device_heap_size, SIZE, "GSHMEM_DEVICE_HEAP_SIZE", NULL, "1G", 1 << 20, 1LL << 40, \
      "bytes of GPU device heap per PE (gshmem_malloc); unused on host lanes, where gshmem_malloc takes from the symmetric heap") \
    X(kv_file_engine, STR, "GSHMEM_KV_FILE_ENGINE", NULL, "auto", 0, 0,            \
      "libgshmem_kv's storage tier: auto (io_uring where built and the kernel allows it, else pread/pwrite) or posix (pread/pwrite); read by libgshmem_kv at gshmem_kv_file_open") \
    X(kv_direct, BOOL, "GSHMEM_KV_DIRECT", NULL, "1", 0, 1,                        \
      "libgshmem_kv: copy to and from a peer outside the job on this host directly (process_vm_readv/writev) when allowed; 0: through UCX always; read at gshmem_kv_peer_add and _connect") \
    X(kv_verbs, STR, "GSHMEM_KV_VERBS", NULL, "off", 0, 0,                          \
      "libgshmem_kv: off, or this host's IP address on an RDMA device; then peers outside the job whose engines set it too are reached by RC QPs of libgshmem_kv's own (librdmacm) instead of UCX; read at the engine's first local_info, peer_add, listen or connect")

#endif
