/* gen-es.js — Spanish for the text the library generates (plan why lines
 * and unranked reasons, audit findings and actions, fabric flags): the API
 * answers in English, and the page renders it in Spanish through these
 * ordered phrase rules, and writes its numbers as the page's cells do (decimal
 * comma, US$: esNumbers). Layouts (TP8 PP2v2 DP64), collective names
 * (all-reduce), units (Gbit/s, GPU-h) and quoted log text are kept as they
 * are. A phrase missing here stays in English, and the tests name it:
 * tests/web/gen-es.test.mjs runs the tool on every preset and audit case
 * and checks each generated sentence, tests/web/gen-es-samples.txt holds
 * one instance of each format string of lib/, and tests/web/browser.mjs
 * checks what the page shows ("untranslated"; the English marker words are
 * in tests/web/english.mjs). So a new sentence in the library needs its
 * rule here, and its sample there. gen(s, 'en') is s, unchanged. */
'use strict';
/* "nodo" or "nodos" for a count the English wrote as digits. */
const nodos = n => (+n === 1 ? 'nodo' : 'nodos');
/* Where a collective runs: "within the node (nvswitch)", "within the NVLink
 * domain (nvl72)", "over 3200 Gbit/s EFA". */
const sobre = o => o.replace(/^within the node \(([^)]*)\)$/, 'dentro del nodo ($1)')
  .replace(/^within the NVLink domain \(([^)]*)\)$/, 'dentro del dominio NVLink ($1)').replace(/^over /, 'sobre ');
/* A fixed English sentence as a pattern (an action of lib/audit/codes.def). */
const L = s => new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g');

/* [English pattern, Spanish replacement (a string with $1.., or a function of
 * the match)]; applied in order, each globally. Sentences first, then the
 * pieces they are made of. Text the library quotes from a log is put in
 * «» and kept as it is. */
const GEN_ES = [
  /* ===== audit findings: messages (lib/audit/findings.c, audit.c, route.c) ===== */
  /* (issue 11: NICs, RDMA not used, software RoCE, containers, bandwidth not judged) */
  [/busbw is 0\.00 on every row while algbw reaches (\S+) GB\/s(; the sizes start over in the table \(one table per process\))?: each process ran alone \(one rank per communicator\), so the run measures no network; nccl-tests was built without MPI \(MPI=1\) or launched without one communicator/g,
    (m, a, again) => `el busbw es 0.00 en todas las filas mientras el algbw llega a ${a} GB/s${again ? '; los tamaños vuelven a empezar en la tabla (una tabla por proceso)' : ''}: cada proceso se ejecutó solo (un rango por comunicador), así que la ejecución no mide ninguna red; nccl-tests se compiló sin MPI (MPI=1) o se lanzó sin un comunicador común`],
  [/busbw steps down at (\S+) bytes from (\S+) GB\/s \(mean of the sizes before\) to (\S+) GB\/s \(mean of the (\d+) sizes from there on\) and stays down/g,
    'el busbw baja con $1 bytes de $2 GB/s (media de los tamaños anteriores) a $3 GB/s (media de los $4 tamaños desde ahí) y no se recupera'],
  [/^a net plugin failed to load and no rank reached Init COMPLETE after it: ([\s\S]*)$/g,
    'no se pudo cargar un plugin de red y ningún rango llegó después a Init COMPLETE: «$1»'],
  [/the port dump ends after (\S+) port (\d+)'s state \(([^)]*)\) and before its (rate and )?link layer/g,
    (m, ca, port, st, rate) => `el volcado del puerto termina tras el estado del puerto ${port} de ${ca} («${st}») y antes de su ${rate ? 'velocidad y su ' : ''}capa de enlace`],
  [/; NET\/IB found no RDMA device/g, '; NET/IB no encontró ningún dispositivo RDMA'],
  [/the offering says the nodes have RDMA \(([^)]*)\) but NCCL moved the data over sockets \(([^)]*)\)/g,
    'la oferta dice que los nodos tienen RDMA ($1), pero NCCL movió los datos por sockets ($2)'],
  [/the (\S+) at (\S+) shows (\d+) Active RDMA port\(s\) but NCCL moved the data over sockets \(([^)]*)\)/g,
    'la salida de $1 en $2 muestra $3 puerto(s) RDMA activos («Active»), pero NCCL movió los datos por sockets ($4)'],
  [/NCCL uses (\d+) of the (\d+) NICs a node has \((\S+)(?: at (\S+))?\)(?: for the (\d+) ranks of each node)?: the run gets at most that share of the node's inter-node bandwidth/g,
    (m, u, n, src, at, r) => `NCCL usa ${u} de las ${n} NIC que tiene un nodo (${src === 'offering' ? 'oferta' : src}${at ? ` en ${at}` : ''})${r ? ` para los ${r} rangos de cada nodo` : ''}: la ejecución obtiene como mucho esa parte del ancho de banda entre nodos del nodo`],
  [/NCCL uses (\d+) NIC\(s\) for the (\d+) ranks of each node/g, 'NCCL usa $1 NIC para los $2 rangos de cada nodo'],
  [/; how many NICs a node has is not in the input \(give --offering, or audit ibstat \/ ibv_devinfo of a node with the log\)/g,
    '; cuántas NIC tiene un nodo no consta en la entrada (dé --offering, o audite ibstat / ibv_devinfo de un nodo junto con el registro)'],
  [/; (.*?) \(([^)]*)\) restricts it/g, (m, what, at) => `; ${what} (${at}) lo limita`],
  [/(\d+) uverbs device\(s\) passed to the container/g, '$1 dispositivo(s) uverbs pasados al contenedor'],
  [/(\S+) is a software RoCE device \(rdma_rxe\): RDMA is emulated by the CPU over a plain Ethernet NIC, far below a hardware RDMA NIC/g,
    '$1 es un dispositivo RoCE por software (rdma_rxe): la CPU emula RDMA sobre una NIC Ethernet normal, muy por debajo de una NIC RDMA de hardware'],
  [/ expected \((ports|probe): the node's NICs, (\S+)\)/g, (m, src, n) => ` expected (${src === 'ports' ? 'puertos' : 'sonda'}: las NIC del nodo, ${n})`],
  /* why bandwidth was not judged (the report's bandwidth_not_judged_reason) */
  [/^the input shows no nccl-tests result row: there is no busbw to judge$/g,
    'la entrada no muestra ninguna fila de resultados de nccl-tests: no hay busbw que juzgar'],
  [/^one node: no inter-node link rate applies; give --offering ID to compare with the intra-node model$/g,
    'un nodo: no aplica ninguna velocidad de enlace entre nodos; dé --offering ID para comparar con el modelo dentro del nodo'],
  [/^the node's (\d+) NIC\(s\) are known \(([^)]*)\) but not their link rate: give --expect-gbps N \(per-node line rate, Gbit\/s\), --offering ID, or ibstat \/ ibv_devinfo output$/g,
    'se conocen las $1 NIC del nodo ($2), pero no su velocidad de enlace: dé --expect-gbps N (velocidad de línea por nodo, Gbit/s), --offering ID, o la salida de ibstat / ibv_devinfo'],
  [/^nothing in the input or flags gives a link rate: give --expect-gbps N \(per-node line rate, Gbit\/s\), --offering ID, or the node's ibstat \/ ibv_devinfo output$/g,
    'nada en la entrada ni en las opciones da una velocidad de enlace: dé --expect-gbps N (velocidad de línea por nodo, Gbit/s), --offering ID, o la salida de ibstat / ibv_devinfo del nodo'],
  [/the largest size \((\S+) bytes\) is below 256 MiB and busbw has not plateaued(: bandwidth is not judged)?/g,
    (m, b, j) => `el tamaño mayor (${b} bytes) no llega a 256 MiB y el busbw no se ha estabilizado${j ? ': el ancho de banda no se juzga' : ''}`],
  /* actions that depend on the evidence (lib/audit/findings.c) */
  [L("the log is already at NCCL_DEBUG=INFO: read the lines of the same rank just before this one (the first WARN names the failing call); for more, add NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH or NCCL_DEBUG=TRACE"),
    'el registro ya está en NCCL_DEBUG=INFO: lea las líneas del mismo rango justo antes de esta (el primer WARN nombra la llamada que falla); para más detalle, añada NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH o NCCL_DEBUG=TRACE'],
  [L("the log is at NCCL_DEBUG=INFO already: rerun with NCCL_DEBUG=TRACE NCCL_DEBUG_SUBSYS=INIT,NET for the per-GPU 'GPU Direct RDMA Disabled' lines, and audit nvidia-smi topo -m and 'lsmod | grep peermem' of a node with it"),
    "el registro ya está en NCCL_DEBUG=INFO: vuelva a ejecutar con NCCL_DEBUG=TRACE NCCL_DEBUG_SUBSYS=INIT,NET para ver las líneas 'GPU Direct RDMA Disabled' de cada GPU, y audite nvidia-smi topo -m y 'lsmod | grep peermem' de un nodo junto con él"],
  [/NCCL_IB_DISABLE=1 turns the RDMA transport off \(([^)]*)\): unset it( in the pod spec's env| in the job script)?, then check that NCCL prints 'NET\/IB : Using' on every node/g,
    (m, at, where) => `NCCL_IB_DISABLE=1 desactiva el transporte RDMA (${at}): quítelo${where ? (where.includes('pod') ? ' del env de la especificación del pod' : ' del script del trabajo') : ''} y compruebe que NCCL imprime 'NET/IB : Using' en cada nodo`],
  [/EFA: install aws-ofi-nccl where NCCL finds it \(LD_LIBRARY_PATH or NCCL_NET_PLUGIN\), set FI_PROVIDER=efa and check 'fi_info -p efa' on every node(; the pod must request vpc\.amazonaws\.com\/efa devices)?/g,
    (m, pod) => `EFA: instale aws-ofi-nccl donde NCCL lo encuentre (LD_LIBRARY_PATH o NCCL_NET_PLUGIN), ponga FI_PROVIDER=efa y revise 'fi_info -p efa' en cada nodo${pod ? '; el pod debe pedir dispositivos vpc.amazonaws.com/efa' : ''}`],
  [/libibverbs could not be loaded \(([^)]*)\): install rdma-core \/ libibverbs1 (in the container image|on every node)/g,
    (m, at, where) => `no se pudo cargar libibverbs (${at}): instale rdma-core / libibverbs1 ${where.includes('container') ? 'en la imagen del contenedor' : 'en cada nodo'}`],
  [/no RDMA device inside the pod \(([^)]*)\): request the RDMA devices in the pod spec \(the RDMA or SR-IOV device plugin's resource, e\.g\. rdma\/\.\.\., and capability IPC_LOCK\) so \/dev\/infiniband appears/g,
    'ningún dispositivo RDMA dentro del pod ($1): pida los dispositivos RDMA en la especificación del pod (el recurso del plugin de dispositivos RDMA o SR-IOV, p. ej. rdma/..., y la capacidad IPC_LOCK) para que aparezca /dev/infiniband'],
  [/no RDMA device inside the container \(([^)]*)\): run it with --device=\/dev\/infiniband \(or --privileged\) and --cap-add=IPC_LOCK/g,
    'ningún dispositivo RDMA dentro del contenedor ($1): ejecútelo con --device=/dev/infiniband (o --privileged) y --cap-add=IPC_LOCK'],
  [/NET\/IB found no RDMA device \(([^)]*)\): check ibv_devinfo, the ib_uverbs and mlx5_ib modules and the HCA driver on every node/g,
    'NET/IB no encontró ningún dispositivo RDMA ($1): revise ibv_devinfo, los módulos ib_uverbs y mlx5_ib y el controlador de la HCA en cada nodo'],
  [/give the pod every RDMA NIC of the node \(the device plugin's resource count or one SR-IOV network per NIC\)( and remove (.*))?$/g,
    (m, r, what) => `dé al pod todas las NIC RDMA del nodo (el número de recursos del plugin de dispositivos o una red SR-IOV por NIC)${r ? ` y quite ${what}` : ''}`],
  [/pass every RDMA device to the container \(--device=\/dev\/infiniband\)( and remove (.*))?$/g,
    (m, r, what) => `pase todos los dispositivos RDMA al contenedor (--device=/dev/infiniband)${r ? ` y quite ${what}` : ''}`],
  [/^(?:remove (.*?)|unset NCCL_IB_HCA) in the job script \(sbatch\/srun --export\) so NCCL uses every NIC of the node; then rerun and check 'NET\/IB : Using' lists them$/g,
    (m, what) => `${what ? `quite ${what}` : 'quite NCCL_IB_HCA'} del script del trabajo (sbatch/srun --export) para que NCCL use todas las NIC del nodo; después vuelva a ejecutar y compruebe que 'NET/IB : Using' las lista`],
  [/^(?:remove (.*?)|unset NCCL_IB_HCA) so NCCL uses every NIC of the node \(or list them all: NCCL_IB_HCA=mlx5\); then rerun and check 'NET\/IB : Using' lists them$/g,
    (m, what) => `${what ? `quite ${what}` : 'quite NCCL_IB_HCA'} para que NCCL use todas las NIC del nodo (o lístelas todas: NCCL_IB_HCA=mlx5); después vuelva a ejecutar y compruebe que 'NET/IB : Using' las lista`],
  [/^first let NCCL use every NIC \(NICS_UNUSED\); /g, 'primero deje que NCCL use todas las NIC (NICS_UNUSED); '],
  [L("check that every EFA interface is attached and used ('fi_info -p efa' lists them; aws-ofi-nccl logs 'Selected provider is efa' with the NIC count), FI_EFA_USE_DEVICE_RDMA=1 on instances with RDMA read, and GPUDirect (/GDRDMA in the channel lines)"),
    "compruebe que todas las interfaces EFA están conectadas y en uso ('fi_info -p efa' las lista; aws-ofi-nccl registra 'Selected provider is efa' con el número de NIC), FI_EFA_USE_DEVICE_RDMA=1 en las instancias con lectura RDMA, y GPUDirect (/GDRDMA en las líneas de canal)"],
  [L('check the GPUDirect-TCPX/TCPXO plugin and its receive-datapath daemon on every VM, and that NCCL_SOCKET_IFNAME / NCCL_GPUDIRECTTCPX_SOCKET_IFNAME list every data NIC'),
    'revise el plugin GPUDirect-TCPX/TCPXO y su demonio de recepción (receive-datapath) en cada VM, y que NCCL_SOCKET_IFNAME / NCCL_GPUDIRECTTCPX_SOCKET_IFNAME listen todas las NIC de datos'],
  [/the data goes over TCP sockets: make the RDMA transport work \(see NET_SOCKET_FALLBACK( \/ RDMA_NOT_USED)?\); if sockets are all there is, raise NCCL_NSOCKS_PERTHREAD and NCCL_SOCKET_NTHREADS/g,
    'los datos van por sockets TCP: haga funcionar el transporte RDMA (vea NET_SOCKET_FALLBACK$1); si solo hay sockets, suba NCCL_NSOCKS_PERTHREAD y NCCL_SOCKET_NTHREADS'],
  [/measure each NIC with ib_write_bw -x (\S+(?: \S+)*?) between two nodes, check PFC\/ECN on the switch ports, GPUDirect RDMA \(\/GDRDMA\) and PCIe link widths/g,
    (m, gid) => `mida cada NIC con ib_write_bw -x ${gid === '<RoCE v2 GID index>' ? '<índice GID de RoCE v2>' : gid} entre dos nodos, revise PFC/ECN en los puertos del conmutador, GPUDirect RDMA (/GDRDMA) y el ancho de los enlaces PCIe`],
  [L('let NCCL use every NIC of the node: remove or widen NCCL_IB_HCA (e.g. NCCL_IB_HCA=mlx5), and give containers every /dev/infiniband device'),
    'deje que NCCL use todas las NIC del nodo: quite o amplíe NCCL_IB_HCA (p. ej. NCCL_IB_HCA=mlx5), y dé a los contenedores todos los dispositivos /dev/infiniband'],
  [L("make the RDMA NICs reachable by NCCL: unset NCCL_IB_DISABLE, install rdma-core/libibverbs (or the fabric's NCCL net plugin), check ibv_devinfo on every node"),
    'haga que NCCL llegue a las NIC RDMA: quite NCCL_IB_DISABLE, instale rdma-core/libibverbs (o el plugin de red de NCCL de la red) y revise ibv_devinfo en cada nodo'],
  [L('check that NCCL uses the fabric (NET/IB or the plugin, not NET/Socket) and every NIC of the node, that GPUDirect RDMA is on, then measure each NIC pair'),
    'compruebe que NCCL usa la red (NET/IB o el plugin, no NET/Socket) y todas las NIC del nodo, que GPUDirect RDMA está activado, y después mida cada par de NIC'],
  [L("use the hardware RDMA device (mlx5_*, not rdma_rxe's rxe*): remove the rxe link (rdma link delete rxe0) or set NCCL_IB_HCA to the hardware HCA"),
    'use el dispositivo RDMA de hardware (mlx5_*, no los rxe* de rdma_rxe): quite el enlace rxe (rdma link delete rxe0) o ponga en NCCL_IB_HCA la HCA de hardware'],
  [/the nccl-tests output ends before its first result row: ranks and devices are read, bandwidth is not shown/g,
    'la salida de nccl-tests termina antes de su primera fila de resultados: se leen los rangos y los dispositivos, no el ancho de banda'],
  [/(\d+) result row\(s\) report wrong values \(#wrong > 0\)/g, '$1 fila(s) de resultados dan valores erróneos («#wrong» > 0)'],
  [/nccl-tests found (\d+) out-of-bounds value\(s\)/g, 'nccl-tests encontró $1 valor(es) fuera de los límites'],
  [/the run has a single rank \((\d+) process\(es\) each printed "Rank 0"\): it measures no network; nccl-tests was built without MPI or launched without one communicator/g,
    'la ejecución tiene un solo rango ($1 proceso(s) imprimieron cada uno "Rank 0"): no mide ninguna red; nccl-tests se compiló sin MPI o se lanzó sin un comunicador común'],
  [/busbw falls to (\S+) GB\/s at (\S+) bytes, under half of the (\S+) GB\/s reached at smaller sizes/g,
    'el busbw cae a $1 GB/s con $2 bytes, menos de la mitad de los $3 GB/s alcanzados con tamaños menores'],
  [/no NVLink between the (\d+) GPUs of the matrix: intra-node traffic crosses PCIe \(PIX\/PXB\/PHB\/NODE\/SYS only\)/g,
    'sin NVLink entre las $1 GPU de la matriz: el tráfico dentro del nodo cruza PCIe (solo PIX/PXB/PHB/NODE/SYS)'],
  [/(\d+) of (\d+) GPUs have no NIC within PXB, NCCL's default GPUDirect RDMA distance: /g,
    '$1 de $2 GPU no tienen ninguna NIC a distancia PXB o menor, la distancia de GPUDirect RDMA predeterminada de NCCL: '],
  [/^(\d+) RDMA completion error\(s\); first cause status=(\d+) \(([^)]*)\): ([\s\S]*)$/g,
    '$1 error(es) de finalización RDMA; primera causa status=$2 ($3): «$4»'],
  [/^NCCL returned (\S+) \((\d+)\): ([\s\S]*)$/g, 'NCCL devolvió $1 ($2): «$3»'],
  [/^NCCL WARN: ([\s\S]*)$/g, 'NCCL WARN: «$1»'],
  [/^collective timed out: ([\s\S]*)$/g, 'la colectiva agotó su tiempo: «$1»'],
  [/^NCCL call failed: ([\s\S]*)$/g, 'falló una llamada a NCCL: «$1»'],
  [/^the table ends with a cut row$/g, 'la tabla termina con una fila cortada'],
  [/^the port dump ends before the port's state, rate and link layer$/g,
    'el volcado del puerto termina antes del estado, la velocidad y la capa de enlace del puerto'],
  [/^the last line is longer than (\d+) bytes and was cut$/g, 'la última línea supera los $1 bytes y se ha cortado'],
  [/^(\S+) port (\d+) is (.*) \((.*)\)$/g, (m, ca, port, st, phys) => `el puerto ${port} de ${ca} está «${st === 'down' ? 'caído' : st}» ` +
    `(${phys === 'physical state not shown' ? 'estado físico no indicado' : `«${phys}»`})`],
  [/GPUDirect RDMA is off: the GPU-NIC PCI distance (\d+) is beyond the allowed (\d+) \(NCCL_NET_GDR_LEVEL\)/g,
    'GPUDirect RDMA está desactivado: la distancia PCI GPU-NIC $1 supera la permitida, $2 (NCCL_NET_GDR_LEVEL)'],
  [/GPUDirect RDMA is off because NCCL_NET_GDR_LEVEL is set to LOC\/0/g,
    'GPUDirect RDMA está desactivado porque NCCL_NET_GDR_LEVEL vale LOC/0'],
  [/GPUDirect RDMA is disabled for every HCA although lsmod lists nvidia_peermem \(([^)]*)\): the module does not work with this driver, OFED or kernel/g,
    'GPUDirect RDMA está desactivado en todas las HCA aunque lsmod muestra nvidia_peermem ($1): el módulo no funciona con este controlador, OFED o núcleo'],
  [/GPUDirect RDMA is disabled for every HCA and the lsmod output \(([^)]*)\) lists no nvidia_peermem/g,
    'GPUDirect RDMA está desactivado en todas las HCA y la salida de lsmod ($1) no muestra nvidia_peermem'],
  [/GPUDirect RDMA is disabled for every HCA although DMA-BUF is available on the GPU \(([^)]*)\)/g,
    'GPUDirect RDMA está desactivado en todas las HCA aunque la GPU ofrece DMA-BUF ($1)'],
  [/GPUDirect RDMA is disabled for every HCA: neither peer memory \(nvidia_peermem\) nor DMA-BUF is usable/g,
    'GPUDirect RDMA está desactivado en todas las HCA: no se puede usar ni la memoria entre pares (nvidia_peermem) ni DMA-BUF'],
  [/the network channels do not use GPUDirect RDMA \(no \/GDRDMA\) and the topology matrix \(([^)]*)\) shows (\d+) GPU\(s\) with no NIC within PXB/g,
    'los canales de red no usan GPUDirect RDMA (sin /GDRDMA) y la matriz de topología ($1) muestra $2 GPU sin ninguna NIC a distancia PXB o menor'],
  [/the network channels do not use GPUDirect RDMA \(no \/GDRDMA\)/g, 'los canales de red no usan GPUDirect RDMA (sin /GDRDMA)'],
  [/[;:] data is staged through host memory/g, m => `${m[0]} los datos pasan por la memoria del host`],
  [/NCCL moves inter-node data over TCP sockets \(NET\/Socket\)/g, 'NCCL mueve los datos entre nodos por sockets TCP (NET/Socket)'],
  [/; NCCL_IB_DISABLE=1 is set/g, '; NCCL_IB_DISABLE=1 está puesto'],
  [/; libibverbs could not be loaded/g, '; no se pudo cargar libibverbs'],
  [/the OFI plugin is loaded but NCCL uses sockets, not EFA/g, 'el plugin OFI está cargado, pero NCCL usa sockets, no EFA'],
  [/libfabric selected provider '([^']*)', not efa: traffic goes over TCP/g,
    "libfabric eligió el proveedor '$1', no efa: el tráfico va por TCP"],
  [/NCCL's device list mixes InfiniBand and RoCE\/Ethernet ports \((\d+) IB, (\d+) RoCE\)/g,
    'la lista de dispositivos de NCCL mezcla puertos InfiniBand y RoCE/Ethernet ($1 IB, $2 RoCE)'],
  [/NCCL_NET_GDR_LEVEL=(\S+) is set in front of the launcher without '-x NCCL_NET_GDR_LEVEL': only the launching node's ranks get it, so GPUDirect RDMA is on there and off \(NCCL's default distance\) on the others/g,
    "NCCL_NET_GDR_LEVEL=$1 se pone delante del lanzador sin '-x NCCL_NET_GDR_LEVEL': solo lo reciben los rangos del nodo que lanza, así que GPUDirect RDMA está activado allí y desactivado (la distancia predeterminada de NCCL) en los demás"],
  [/GPUDirect RDMA is used by some ranks or NICs and not by others/g, 'algunos rangos o NIC usan GPUDirect RDMA y otros no'],
  [/GPUDirect RDMA was forced with NCCL_NET_GDR_LEVEL=(\S+), beyond NCCL's default PXB distance/g,
    'GPUDirect RDMA se forzó con NCCL_NET_GDR_LEVEL=$1, más allá de la distancia PXB predeterminada de NCCL'],
  [/NCCL reports the GPU-NIC distance (\d+) beyond the GPUDirect RDMA limit (\d+)/g,
    'NCCL indica una distancia GPU-NIC de $1, más allá del límite de GPUDirect RDMA, $2'],
  [/busbw (\S+) GB\/s at the largest size is (\S+) of the (\S+) GB\/s expected \(([^)]*)\)/g,
    (m, b, p, e, src) => `el busbw de ${b} GB/s con el tamaño mayor es el ${p} de los ${e} GB/s esperados (${
      ({ ports: 'puertos', offering: 'oferta', 'expect-gbps': 'expect-gbps' })[src] || src})`],
  [/the input holds (\d+) separate runs \(other files, NCCL versions, processes or nccl-tests runs\); the top-level facts are those of run (\d+), from (\S+); every finding keeps its own file, line and run/g,
    'la entrada contiene $1 ejecuciones distintas (otros archivos, versiones de NCCL, procesos o ejecuciones de nccl-tests); los datos generales son los de la ejecución $2, de $3; cada hallazgo conserva su propio archivo, línea y ejecución'],
  [/^nccl-tests output without a single result row \(header only\)$/g, 'salida de nccl-tests sin ninguna fila de resultados (solo la cabecera)'],
  [/^the input is empty$/g, 'la entrada está vacía'],
  [/^no nccl-tests table, NCCL_DEBUG line, nvidia-smi topo -m matrix, ibstat or ibv_devinfo dump recognised in (\d+) bytes$/g,
    'no se reconoce ninguna tabla de nccl-tests, línea de NCCL_DEBUG, matriz de nvidia-smi topo -m ni volcado de ibstat o ibv_devinfo en $1 bytes'],

  /* ===== audit findings: actions (lib/audit/codes.def, findings.c's ACT_GDR_*) ===== */
  [L('check link and switch counters (ibdiagnet, perfquery), PFC/ECN on RoCE, and whether a peer process died first; rerun after fixing the fabric'),
    'revise los contadores de enlaces y conmutadores (ibdiagnet, perfquery), PFC/ECN en RoCE y si antes murió un proceso par; vuelva a ejecutar tras arreglar la red'],
  [L('rerun with -c 1 on each node pair to isolate the bad GPU or NIC; check GPU ECC (nvidia-smi -q -d ECC) and PCIe ACS'),
    'vuelva a ejecutar con -c 1 en cada par de nodos para aislar la GPU o NIC defectuosa; revise el ECC de las GPU (nvidia-smi -q -d ECC) y el ACS de PCIe'],
  [L('find the rank that stalled (its first error); check that NCCL_SOCKET_IFNAME/NCCL_IB_HCA reach every node and firewall rules'),
    'busque el rango que se detuvo (su primer error); compruebe que NCCL_SOCKET_IFNAME/NCCL_IB_HCA llegan a todos los nodos y las reglas del cortafuegos'],
  [L('read the first NCCL WARN before it; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see which transport failed'),
    'lea el primer NCCL WARN anterior; vuelva a ejecutar con NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET para ver qué transporte falló'],
  [L("unset NCCL_IB_DISABLE, install rdma-core/libibverbs (or your fabric's NCCL net plugin) and check ibv_devinfo on every node"),
    'quite NCCL_IB_DISABLE, instale rdma-core/libibverbs (o el plugin de red de NCCL de su red) y revise ibv_devinfo en cada nodo'],
  [L("enable the EFA device and aws-ofi-nccl, set FI_PROVIDER=efa, and check 'fi_info -p efa' on every node"),
    "active el dispositivo EFA y aws-ofi-nccl, ponga FI_PROVIDER=efa y revise 'fi_info -p efa' en cada nodo"],
  [L('rerun with NCCL_DEBUG=INFO (TRACE for per-GPU lines) to see why: GPU-NIC distance (nvidia-smi topo -m), the peer-memory module (lsmod | grep peermem) or DMA-BUF support'),
    'vuelva a ejecutar con NCCL_DEBUG=INFO (TRACE para las líneas por GPU) para ver la causa: la distancia GPU-NIC (nvidia-smi topo -m), el módulo de memoria entre pares (lsmod | grep peermem) o el soporte de DMA-BUF'],
  [L("give every rank the same settings: export NCCL_* with 'mpirun -x NAME' or in the job script, and check nvidia_peermem on every node"),
    "dé a todos los rangos los mismos ajustes: exporte NCCL_* con 'mpirun -x NAME' o en el script del trabajo, y revise nvidia_peermem en cada nodo"],
  [L('confirm the GPU-NIC path supports peer-to-peer at that distance, or place each rank on the GPU nearest its NIC'),
    'confirme que el camino GPU-NIC admite peer-to-peer a esa distancia, o ponga cada rango en la GPU más cercana a su NIC'],
  [L("restrict NCCL to the fabric's HCAs with NCCL_IB_HCA so it does not mix InfiniBand and RoCE ports"),
    'limite NCCL a las HCA de la red con NCCL_IB_HCA para que no mezcle puertos InfiniBand y RoCE'],
  [L('measure each NIC with ib_write_bw between two nodes, check that NCCL uses every NIC (NCCL_IB_HCA), GDR is on, and PCIe link widths'),
    'mida cada NIC con ib_write_bw entre dos nodos, compruebe que NCCL usa todas las NIC (NCCL_IB_HCA), que GDR está activado, y el ancho de los enlaces PCIe'],
  [L('check GPU memory pressure, PCIe/ACS, NIC pause counters and congestion; rerun the sizes around the drop'),
    'revise la presión sobre la memoria de las GPU, PCIe/ACS, los contadores de pausa de las NIC y la congestión; repita los tamaños en torno a la caída'],
  [L('expect far lower intra-node busbw than on NVLink boards; keep tensor parallelism small on this node type'),
    'cuente con un busbw dentro del nodo muy inferior al de las placas con NVLink; mantenga pequeño el paralelismo de tensores en este tipo de nodo'],
  [L("pin each rank to the GPU nearest its NIC, or use a node type with a NIC under each GPU's PCIe switch"),
    'fije cada rango a la GPU más cercana a su NIC, o use un tipo de nodo con una NIC bajo el conmutador PCIe de cada GPU'],
  [L('bring the port up (cable, switch port, subnet manager) or exclude it with NCCL_IB_HCA'),
    'levante el puerto (cable, puerto del conmutador, gestor de subred) o exclúyalo con NCCL_IB_HCA'],
  [L('pass nccl-tests output, an NCCL_DEBUG=INFO log, nvidia-smi topo -m, ibstat or ibv_devinfo output'),
    'pase la salida de nccl-tests, un registro con NCCL_DEBUG=INFO, nvidia-smi topo -m, o la salida de ibstat o ibv_devinfo'],
  [L('rebuild nccl-tests with MPI=1 and launch one rank per GPU with mpirun or srun so all ranks join one communicator'),
    'recompile nccl-tests con MPI=1 y lance un rango por GPU con mpirun o srun para que todos los rangos formen un solo comunicador'],
  [L("capture the whole output (e.g. '2>&1 | tee log.txt') and audit it again"),
    "capture la salida completa (p. ej. '2>&1 | tee log.txt') y vuelva a auditarla"],
  [L('rerun with -e 8G (at least 256M) so busbw reaches its plateau'),
    'vuelva a ejecutar con -e 8G (256M como mínimo) para que el busbw alcance su meseta'],
  [L("audit each run on its own to compare them; each finding names its file and line and run_facts[] gives every run's facts"),
    'audite cada ejecución por separado para compararlas; cada hallazgo indica su archivo y su línea, y run_facts[] da los datos de cada ejecución'],
  [L('topology: run each rank on a GPU whose NIC sits under the same PCIe switch (PIX/PXB in nvidia-smi topo -m), or raise NCCL_NET_GDR_LEVEL (PHB/SYS) only if the platform supports PCIe peer-to-peer at that distance'),
    'topología: ejecute cada rango en una GPU cuya NIC cuelgue del mismo conmutador PCIe (PIX/PXB en nvidia-smi topo -m), o suba NCCL_NET_GDR_LEVEL (PHB/SYS) solo si la plataforma admite peer-to-peer PCIe a esa distancia'],
  [L('nvidia_peermem is loaded but unusable: rebuild/reinstall it for the running NVIDIA driver, MLNX_OFED and kernel (dkms status; dmesg | grep -i peer), check that ACS/IOMMU do not block peer-to-peer (iommu=pt, ACS off on PCIe switches), or use DMA-BUF (NCCL_DMABUF_ENABLE=1)'),
    'nvidia_peermem está cargado pero no se puede usar: recompílelo o reinstálelo para el controlador NVIDIA, MLNX_OFED y el núcleo en uso (dkms status; dmesg | grep -i peer), compruebe que ACS/IOMMU no bloquean el peer-to-peer (iommu=pt, ACS desactivado en los conmutadores PCIe), o use DMA-BUF (NCCL_DMABUF_ENABLE=1)'],
  [L('load the peer-memory module (modprobe nvidia_peermem) on every node, or use DMA-BUF (kernel >= 5.12, NVIDIA open kernel modules, NCCL_DMABUF_ENABLE=1)'),
    'cargue el módulo de memoria entre pares (modprobe nvidia_peermem) en cada nodo, o use DMA-BUF (núcleo >= 5.12, módulos abiertos del núcleo de NVIDIA, NCCL_DMABUF_ENABLE=1)'],
  [L('the GPU offers DMA-BUF but the HCAs take neither it nor peer memory: update rdma-core/MLNX_OFED so ibv_reg_dmabuf_mr works, or load nvidia_peermem built for this driver'),
    'la GPU ofrece DMA-BUF, pero las HCA no aceptan ni eso ni la memoria entre pares: actualice rdma-core/MLNX_OFED para que ibv_reg_dmabuf_mr funcione, o cargue un nvidia_peermem compilado para este controlador'],
  [L("unset NCCL_NET_GDR_LEVEL (LOC/0 turns GPUDirect RDMA off) or set it to PXB, NCCL's default"),
    'quite NCCL_NET_GDR_LEVEL (LOC/0 desactiva GPUDirect RDMA) o póngalo a PXB, el valor predeterminado de NCCL'],
  [L('topology: pin each rank to the GPU nearest its NIC (PIX/PXB in nvidia-smi topo -m); set NCCL_NET_GDR_LEVEL beyond PXB only if the platform supports peer-to-peer at that distance'),
    'topología: fije cada rango a la GPU más cercana a su NIC (PIX/PXB en nvidia-smi topo -m); ponga NCCL_NET_GDR_LEVEL más allá de PXB solo si la plataforma admite peer-to-peer a esa distancia'],

  /* ===== probe findings (lib/probe/node.c and codes.def; the audit box takes a probe's JSON) ===== */
  [/^(\S+) port (\d+) is (\S+) \(physical state ([^;]*); (\S+)\)$/g,
    (m, ca, port, st, phys, path) => `el puerto ${port} de ${ca} está «${st}» (estado físico ${phys === 'unknown' ? 'desconocido' : `«${phys}»`}; ${path})`],
  [/^(\S+) port (\d+) runs at (\S+) Gbit\/s, its (\d+) (\S+) peers at up to (\S+) Gbit\/s \((\S+)\)$/g,
    'el puerto $2 de $1 va a $3 Gbit/s, y sus $4 pares $5 a hasta $6 Gbit/s ($7)'],
  [/^no GPU in \/proc\/driver\/nvidia\/gpus or \/sys\/bus\/pci\/devices$/g, 'ninguna GPU en /proc/driver/nvidia/gpus ni en /sys/bus/pci/devices'],
  [/^no RDMA device in \/sys\/class\/infiniband$/g, 'ningún dispositivo RDMA en /sys/class/infiniband'],
  [/^(\d+) GPU\(s\) have no RDMA NIC under their PCIe switch; nearest path: /g, '$1 GPU no tienen ninguna NIC RDMA bajo su conmutador PCIe; camino más cercano: '],
  [/^GPUDirect RDMA is off: no nvidia_peermem or nv_peer_mem in \/sys\/module, and no DMA-BUF \(kernel (\S+), (open|proprietary|unknown) NVIDIA kernel module (\S+)\)$/g,
    (m, k, kind, drv) => `GPUDirect RDMA está desactivado: ni nvidia_peermem ni nv_peer_mem en /sys/module, y sin DMA-BUF (núcleo ${k === 'unknown' ? 'desconocido' : k}, módulo del núcleo de NVIDIA ${({ open: 'abierto', proprietary: 'propietario', unknown: 'desconocido' })[kind]} ${drv === 'unknown' ? 'desconocido' : drv})`],
  [/^(\d+) RDMA device\(s\) in \/sys\/class\/infiniband but (\d+) uverbs device\(s\) in \/dev\/infiniband( \(absent\))?: verbs cannot open them here$/g,
    (m, n, u, absent) => `${n} dispositivo(s) RDMA en /sys/class/infiniband, pero ${u} dispositivo(s) uverbs en /dev/infiniband${absent ? ' (no existe)' : ''}: verbs no puede abrirlos aquí`],
  [/^ACS redirects peer-to-peer requests on the bridge\(s\) (.*) between GPUs and NICs$/g,
    'ACS redirige las peticiones peer-to-peer en los puentes $1 entre las GPU y las NIC'],
  [/^locked memory is limited to (\d+) bytes \(\/proc\/self\/limits\); RDMA registers buffers with it$/g,
    'la memoria bloqueada está limitada a $1 bytes (/proc/self/limits); RDMA registra los búferes con ella'],
  [L('bring the port up (cable, switch port, subnet manager: ibstat, ibportstate) or exclude it with NCCL_IB_HCA'),
    'levante el puerto (cable, puerto del conmutador, gestor de subred: ibstat, ibportstate) o exclúyalo con NCCL_IB_HCA'],
  [L("reseat or replace the cable or transceiver and check the switch port's speed (ibportstate, ethtool); the slow rail limits every ring through it"),
    'vuelva a conectar o cambie el cable o el transceptor y revise la velocidad del puerto del conmutador (ibportstate, ethtool); el raíl lento limita todos los anillos que pasan por él'],
  [L("load the peer-memory module (modprobe nvidia_peermem) or use a kernel >= 5.12 with NVIDIA's open kernel module for DMA-BUF"),
    'cargue el módulo de memoria entre pares (modprobe nvidia_peermem) o use un núcleo >= 5.12 con el módulo abierto del núcleo de NVIDIA para DMA-BUF'],
  [L('give the container the RDMA devices (--device /dev/infiniband, or the RDMA device plugin on Kubernetes) and IPC_LOCK'),
    'dé al contenedor los dispositivos RDMA (--device /dev/infiniband, o el plugin de dispositivos RDMA en Kubernetes) e IPC_LOCK'],
  [L('disable ACS redirection on the PCIe switch ports between GPUs and NICs (setpci, or the BIOS), or peer-to-peer traffic goes through the root complex'),
    'desactive la redirección ACS en los puertos de los conmutadores PCIe entre las GPU y las NIC (setpci, o la BIOS), o el tráfico peer-to-peer pasará por el complejo raíz'],
  [L("raise the locked-memory limit to unlimited (ulimit -l unlimited; Slurm PropagateResourceLimits, the container's --ulimit memlock=-1)"),
    'suba el límite de memoria bloqueada a ilimitado (ulimit -l unlimited; PropagateResourceLimits de Slurm, --ulimit memlock=-1 del contenedor)'],
  [L('run the probe on a GPU node (outside a container, or with the GPUs passed through); without GPUs the GPU-NIC paths and GDR are unknown'),
    'ejecute la sonda en un nodo con GPU (fuera de un contenedor, o con las GPU pasadas a él); sin GPU, los caminos GPU-NIC y GDR son desconocidos'],
  [L("run the probe where the fabric's RDMA devices are visible; without them port states and rates are unknown"),
    'ejecute la sonda donde se vean los dispositivos RDMA de la red; sin ellos, los estados y velocidades de los puertos son desconocidos'],
  [L('make the named nodes like the others (driver, firmware, cabling, NCCL settings), or drain them from the job'),
    'iguale los nodos nombrados a los demás (controlador, firmware, cableado, ajustes de NCCL), o sáquelos del trabajo'],
  [L("measure the pair with ib_write_bw or nccl-tests on the two nodes alone; check both ports' rates and the switch path between them"),
    'mida el par con ib_write_bw o nccl-tests solo en esos dos nodos; revise las velocidades de ambos puertos y el camino de conmutadores entre ellos'],
  [L('drain the node and check its NICs (port rates, PCIe link width: lspci -vv), CPU frequency and memory'),
    'saque el nodo y revise sus NIC (velocidades de puerto, ancho del enlace PCIe: lspci -vv), la frecuencia de la CPU y la memoria'],
  [L("look at the named ranks' nodes (dmesg, a hung file system or GPU); rerun without them, or with a longer --timeout"),
    'examine los nodos de los rangos nombrados (dmesg, un sistema de archivos o una GPU colgados); vuelva a ejecutar sin ellos, o con un --timeout mayor'],
  [L('ask the provider for the GPUs the offering promises, or check that the container sees all of them'),
    'pida al proveedor las GPU que promete la oferta, o compruebe que el contenedor las ve todas'],
  [L("ask the provider: the node's GPU is not the offering's"), 'pregunte al proveedor: la GPU del nodo no es la de la oferta'],
  [L('ask the provider for the missing NICs, or check that the container sees every RDMA device'),
    'pida al proveedor las NIC que faltan, o compruebe que el contenedor ve todos los dispositivos RDMA'],
  [L('bring the missing or slow ports up to their rate; the job gets this share of the scale-out bandwidth paid for'),
    'lleve los puertos que faltan o van lentos a su velocidad; el trabajo obtiene esta parte del ancho de banda entre nodos pagado'],
  [L('the offering promises GPUDirect RDMA: load nvidia_peermem (or use DMA-BUF) and ask the provider if it stays off'),
    'la oferta promete GPUDirect RDMA: cargue nvidia_peermem (o use DMA-BUF) y pregunte al proveedor si sigue desactivado'],

  /* ===== fabrics: assumptions (lib/plan/fabrics.c) ===== */
  [/^gpus_per_node (\d+): the usual (\S+) node \(data\/gpus\.csv\)$/g, 'gpus_per_node $1: el nodo habitual de $2 (data/gpus.csv)'],
  [/^intra (\S+): the usual (\S+) board \(data\/gpus\.csv\)$/g, 'intra $1: la placa habitual de $2 (data/gpus.csv)'],
  [/^nics (\d+): the most common NIC count of the shipped catalog's (\S+) offerings that state their NICs \((\d+) of (\d+)\)$/g,
    'nics $1: el número de NIC más común entre las ofertas de $2 del catálogo incluido que indican sus NIC ($3 de $4)'],
  [/^nics (\d+): one NIC per GPU \(no offering of (\S+) states its NICs\)$/g, 'nics $1: una NIC por GPU (ninguna oferta de $2 indica sus NIC)'],
  [/^nic_gbps (\S+): the most common line rate per NIC of the shipped catalog's (\S+) offerings that state their NICs \((\d+) of (\d+)\)$/g,
    'nic_gbps $1: la velocidad de línea por NIC más común entre las ofertas de $2 del catálogo incluido que indican sus NIC ($3 de $4)'],
  [/^gdr: each family's usual state \(GPUDirect on for ([^;]*); not applicable to tcp\); every family at the same (\d+) x (\S+) Gbit\/s NICs$/g,
    'gdr: el estado habitual de cada familia (GPUDirect activado en $1; no aplica a tcp); todas las familias con las mismas NIC, $2 x $3 Gbit/s'],

  /* ===== fit: the why (lib/model/fit.c) ===== */
  [/^(\S+) B parameters( \((\S+) B active per token\))? hold (\S+) TiB of weights, gradients and optimizer states/g,
    (m, n, act, a, t) => `${n} B de parámetros${act ? ` (${a} B activos por token)` : ''} ocupan ${t} TiB de pesos, gradientes y estados del optimizador`],
  [/; on (\d+) nodes? \((\d+) GPUs\) no layout of the search space \(TP, CP, PP(, EP)?, ZeRO, recompute\) fits (\S+) GiB per GPU/g,
    (m, n, g, ep, gib) => `; en ${n} ${nodos(n)} (${g} GPU) ningún reparto del espacio de búsqueda (TP, CP, PP${ep || ''}, ZeRO, recomputación) cabe en ${gib} GiB por GPU`],
  [/; the layout needs per GPU (\S+) GiB of states, (\S+) GiB of activations and (\S+) GiB of runtime reserve/g,
    '; el reparto necesita por GPU $1 GiB de estados, $2 GiB de activaciones y $3 GiB de reserva de ejecución'],

  /* ===== plan: the why line (lib/plan/why.c): what binds; E; P and the price ===== */
  [/no communication bottleneck: communication and bubble (\S+) of the step/g,
    'sin cuello de botella de comunicación: comunicación y burbuja $1 del paso'],
  [/pipeline bubble \(PP(\d+) interleaved\) takes (\S+) of the step/g, 'la burbuja de tubería (PP$1 intercalado) ocupa $2 del paso'],
  [/pipeline bubble \(PP(\d+)\) takes (\S+) of the step/g, 'la burbuja de tubería (PP$1) ocupa $2 del paso'],
  [/\bTP (all-reduce|all-gather\/reduce-scatter) (within the node \([^)]*\)|within the NVLink domain \([^)]*\)|over [^;]*?) exposes (\S+) of the step/g,
    (m, c, o, p) => `el ${c} de TP ${sobre(o)} expone ${p} del paso`],
  [/\bDP (all-reduce|all-gather\/reduce-scatter \(ZeRO-3\)) (within the node \([^)]*\)|within the NVLink domain \([^)]*\)|over [^;]*?) exposes (\S+) of the step/g,
    (m, c, o, p) => `el ${c} de DP ${sobre(o)} expone ${p} del paso`],
  [/\bPP send\/recv (within the node \([^)]*\)|within the NVLink domain \([^)]*\)|over [^;]*?) exposes (\S+) of the step/g,
    (m, o, p) => `el send/recv de PP ${sobre(o)} expone ${p} del paso`],
  [/\bCP K\/V exchange (within the node \([^)]*\)|within the NVLink domain \([^)]*\)|over [^;]*?) exposes (\S+) of the step/g,
    (m, o, p) => `el intercambio K/V de CP ${sobre(o)} expone ${p} del paso`],
  [/\bMoE all-to-all \(dispatch and combine over (EP\d+)\) (within the node \([^)]*\)|within the NVLink domain \([^)]*\)|over [^;]*?) exposes (\S+) of the step/g,
    (m, ep, o, p) => `el all-to-all de MoE (reparto y combinación en ${ep}) ${sobre(o)} expone ${p} del paso`],
  /* why E is above 1 (the why line and the scaling note's text) */
  [/\babove 1 because memory binds on (\d+) nodes?: the fastest layout that fits there is (.*?), while (\d+) nodes have room for /g,
    (m, n0, l0, n) => `por encima de 1 porque la memoria limita con ${n0} ${nodos(n0)}: el reparto más rápido que cabe allí es ${l0}, mientras que ${n} ${nodos(n)} dejan sitio para `],
  [/\babove 1: on (\d+) nodes? the fastest layout is (.*?), and even without the memory limit no layout of its (\d+) GPUs is as fast per GPU as (.*?) on (\d+) nodes\b/g,
    (m, n0, l0, g, l1, n) => `por encima de 1: con ${n0} ${nodos(n0)} el reparto más rápido es ${l0}, y ni sin el límite de memoria hay reparto de sus ${g} GPU tan rápido por GPU como ${l1} con ${n} ${nodos(n)}`],
  [/\bE (\S+) at (\d+) nodes is por encima/g, 'E $1 con $2 nodos está por encima'],
  [/\bE (\S+) on the smallest cluster that fits \((\d+) nodes?\)/g, (m, e, n) => `E ${e} en el clúster más pequeño en que cabe (${n} ${nodos(n)})`],
  [/\bE (\S+) at (\d+) nodes vs (\d+)/g, 'E $1 con $2 nodos frente a $3'],
  [/ with ZeRO-(\d) and full recompute/g, ' con ZeRO-$1 y recomputación completa'],
  [/ with ZeRO-(\d) and selective recompute/g, ' con ZeRO-$1 y recomputación selectiva'],
  [/ with ZeRO-(\d) and no recompute/g, ' con ZeRO-$1 y sin recomputación'],
  [/ with full recompute/g, ' con recomputación completa'],
  [/ with selective recompute/g, ' con recomputación selectiva'],
  [/ with no recompute/g, ' sin recomputación'],
  [/\b(\d+) ranks\b/g, '$1 rangos'],   /* a stencil's layout: MPI ranks */
  [/\bP (\S+): (\S+) (\S+)\/GPU-h sticker is (\S+) effective/g, 'P $1: $2 $3/GPU-h de tarifa son $4 efectivos'],
  [/ within the node \(([^)]*)\)/g, ' dentro del nodo ($1)'],
  [/ within the NVLink domain \(([^)]*)\)/g, ' dentro del dominio NVLink ($1)'],
  /* --- unranked reasons (lib/plan/plan.c, scale.c) --- */
  [/^price unknown$/g, 'precio desconocido'],
  [/^currency unknown$/g, 'moneda desconocida'],
  [/^currency (\w+)$/g, 'moneda $1'],
  [/^gpu unknown$/g, 'GPU desconocida'],
  [/^gpu (\S+) not in the hardware table$/g, 'GPU $1 fuera de la tabla de hardware'],
  [/^gpu not in the hardware table$/g, 'GPU fuera de la tabla de hardware'],
  [/^gpus_per_node unknown$/g, 'GPU por nodo desconocidas'],
  [/^intra_link unknown$/g, 'enlace dentro del nodo desconocido'],
  [/^network unknown$/g, 'red desconocida'],
  [/^network_gbps_per_node unknown$/g, 'Gbit/s por nodo desconocidos'],
  [/needs (\d+) nodes to fit in memory; the largest cluster is (\d+) nodes/g,
    'necesita $1 nodos para caber en memoria; el clúster más grande es de $2 nodos'],
  [/needs (\d+) nodes to fit in memory/g, 'necesita $1 nodos para caber en memoria'],
  [/no layout fits in memory on up to (\d+) nodes/g, 'ningún reparto cabe en memoria con hasta $1 nodos'],
  [/does not fit in memory on one node/g, 'no cabe en memoria en un nodo'],
  [/does not fit in memory on up to (\d+) nodes/g, 'no cabe en memoria con hasta $1 nodos'],
  [/^does not fit in memory$/g, 'no cabe en memoria'],
  [/^batch of (\d+) seqs too small$/g, 'lote de $1 secuencias demasiado pequeño'],
  [/^batch of (\d+) too small$/g, 'lote de $1 demasiado pequeño'],
  [/; one node only: the network between nodes is not stated \(network unknown\)/g,
    '; solo un nodo: la red entre nodos no consta (red desconocida)'],
  [/deadline (\S+) h not met on one node \(the network between nodes is not stated: network unknown\)/g,
    'plazo de $1 h no cumplido con un nodo (la red entre nodos no consta: red desconocida)'],
  [/; one node only: the network's Gbit\/s per node is not stated \(network (\S+), network_gbps_per_node unknown\)/g,
    '; solo un nodo: los Gbit/s por nodo de la red no constan (red $1, Gbit/s por nodo desconocidos)'],
  [/deadline (\S+) h not met on one node \(the network's Gbit\/s per node is not stated: network (\S+), network_gbps_per_node unknown\)/g,
    'plazo de $1 h no cumplido con un nodo (los Gbit/s por nodo de la red no constan: red $2, Gbit/s por nodo desconocidos)'],
  [/deadline (\S+) h not met on up to (\d+) nodes/g, 'plazo de $1 h no cumplido con hasta $2 nodos'],
  [/ \(with the (\S+) % margin\)/g, ' (con el margen del $1 %)'],
  [/^known-only: more than one node rests on facts the catalog does not state \(([^)]*)\), and one node (does not fit the workload|misses the deadline|exceeds the budget)$/g,
    (m, facts, why) => `known-only: más de un nodo depende de datos que el catálogo no indica (${facts
      .replace('its largest cluster', 'su clúster más grande').replace('its NICs per node', 'sus NIC por nodo')
      .replace('its fabric topology', 'la topología de su red')}), y un nodo ${({
      'does not fit the workload': 'no da cabida a la carga', 'misses the deadline': 'no cumple el plazo',
      'exceeds the budget': 'supera el presupuesto' })[why]}`],
  [/budget (\S+) (\w+) exceeded on every node count/g, 'presupuesto de $1 $2 superado con cualquier número de nodos'],
  [/^fabric: /g, 'red: '],
  /* a fabric refusal after "fabric: " (lib/plan/fabric.c) */
  [/\boffering (\S+): (\d+) nodes need the network between them, and the offering does not state it or its line rate \(network or its line rate unknown; one node works\)/g,
    'oferta $1: $2 nodos necesitan la red entre ellos, y la oferta no indica ni la red ni su velocidad de línea (red o velocidad desconocida; un nodo funciona)'],
  [/\boffering (\S+): intra_link unknown; the model needs the GPUs' link inside the node/g,
    'oferta $1: enlace dentro del nodo desconocido; el modelo necesita el enlace entre las GPU del nodo'],
  [/\boffering (\S+): its largest cluster is (\d+) GPUs \((\d+) of (\d+) GPUs each\); (\d+) of them are asked for/g,
    'oferta $1: su clúster más grande es de $2 GPU ($3 de $4 GPU cada uno); se piden $5'],
  [/\boffering (\S+): network or its line rate unknown/g, 'oferta $1: red o su velocidad de línea desconocida'],
  [/\boffering (\S+): gpu unknown/g, 'oferta $1: GPU desconocida'],
  [/\boffering (\S+): gpus_per_node unknown/g, 'oferta $1: GPU por nodo desconocidas'],
  [/\boffering (\S+): gpu name too long/g, 'oferta $1: nombre de GPU demasiado largo'],
  [/(^|: )unsupported$/g, '$1no admitido'],
];

/* Vocabulary values the API returns (DESIGN §2) in Spanish; the others
 * (slurm, kubernetes, ib, lustre...) are names and stay as they are. */
const VALUES_ES = {
  on: 'activado', off: 'desactivado', partial: 'parcial', na: 'no aplica',
  'on-demand': 'bajo demanda', spot: 'spot', reserved: 'reservado', waitlist: 'lista de espera', flex: 'flexible',
  vm: 'VM', managed: 'gestionado', object: 'objetos', none: 'ninguno',
  ok: 'correcto', warning: 'aviso', failed: 'fallido', invalid: 'no válido', info: 'información', error: 'error',
  shipped: 'incluida', user: 'del usuario', unknown: 'desconocido',
};

/* One vocabulary value v in the page's language. */
function val(v, lang) {
  if (lang !== 'es' || typeof v !== 'string') return v;
  return Object.prototype.hasOwnProperty.call(VALUES_ES, v) ? VALUES_ES[v] : v;
}

/* The numbers and the currency of a Spanish sentence as the page's cells
 * write them (Intl, es: "118,7 %", "2,11 US$"): a decimal point becomes a
 * comma and USD becomes US$, outside text quoted from a log («…») and never
 * inside a dotted run of numbers (an address 10.0.0.1, a version 2.19.6), a
 * name (v2.19, H100-SXM) or a path. */
function esNumbers(s) {
  return s.split(/(«[^»]*»)/).map(part => (part.startsWith('«') ? part : part
    .replace(/(^|[^\w.\/:-])(\d+)\.(\d+)(?![a-wyzA-Z0-9_.\/]|x\w|,\d)/g, '$1$2,$3')
    .replace(/(\d) USD\b/g, '$1 US$').replace(/\bUSD\//g, 'US$/'))).join('');
}

/* The generated English text s in the page's language: as it is in English,
 * through GEN_ES in Spanish, its numbers then written as Spanish writes them. */
function gen(s, lang) {
  if (!s || lang !== 'es') return s;
  let out = String(s);
  for (const [re, to] of GEN_ES) out = out.replace(re, to);
  return esNumbers(out);
}
