/* app.js — the clusterfit page: comparison table, planner, audit box.
 *
 * Vanilla JS over the JSON API of `clusterfit serve` (DESIGN §6); nothing is
 * loaded from elsewhere. All text goes through T() (English, Spanish), all
 * numbers and dates through Intl with the chosen language. A value the API
 * sends as null is shown as "unknown" ("desconocido"), never left blank. The
 * table's filters live in the page's URL, so a filtered view can be shared. */
'use strict';

const I18N = {
  en: {
    skip: 'Skip to content', language: 'Language', page_title: 'clusterfit — multi-node GPU clusters',
    tagline: 'Compare, plan and verify multi-node GPU clusters. When you rent many nodes you rent the network between them: scaling efficiency decides the bill.',
    nav_compare: 'Compare', nav_plan: 'Plan', nav_verify: 'Verify',
    compare_h: 'Compare cluster offerings', filters_h: 'Filters',
    f_multinode: 'Multi-node', opt_multinode_yes: 'multi-node only', opt_multinode_no: 'single node only',
    opt_any: 'any', f_network: 'Fabric', f_rdma: 'RDMA', f_gdr: 'GPUDirect RDMA', f_gpu: 'GPU',
    f_min_gbps: 'Min Gbit/s per node', f_orchestration: 'Orchestration', f_provisioning: 'Provisioning',
    f_max_price: 'Max price per GPU-hour', f_currency: 'Currency', f_provider: 'Provider',
    f_storage: 'With shared storage', apply: 'Apply filters', reset: 'Reset',
    yes: 'yes', no: 'no', unknown: 'unknown', close: 'Close', details: 'Details of',
    guide_h: 'Before you rent', guide_when_h: 'When is multi-node worth it?',
    guide_when: 'When the model with its optimizer state does not fit in one node\'s GPU memory, or when one node would miss your deadline. Every extra node adds communication: at 80 % scaling efficiency you pay for a fifth of the GPU-hours without getting work back, so compare the effective price, not the sticker price.',
    guide_fabric_h: 'Which fabric for which job?',
    guide_fabric: 'Pre-training and sharded fine-tuning (FSDP, ZeRO-3, tensor or pipeline parallel across nodes) move gradients and weights every step: ask for InfiniBand, RoCE or EFA with GPUDirect RDMA, ideally one 400 Gbit/s NIC per GPU. Plain data-parallel training of small models hides much of its traffic behind compute and copes with 100–200 Gbit/s. MPI simulations with small messages care about latency, where InfiniBand leads. Batch inference and independent tasks hardly use the network.',
    guide_check_h: 'What to check first',
    guide_check1: 'Gbit/s per node and NICs per node, not per cluster; whether GPUDirect RDMA is enabled.',
    guide_check2: 'Topology: non-blocking, rail-optimized, and the largest cluster rented as one unit.',
    guide_check3: 'Billing increment and minimum commitment, shared storage, and the date of the price.',
    guide_check4: 'Once the nodes are yours, run nccl-tests all_reduce across them and paste the output below.',
    col_offering: 'Offering', col_gpu: 'GPU', col_network: 'Fabric', col_gbps: 'Gbit/s per node',
    col_rdma: 'RDMA', col_gdr: 'GPUDirect RDMA', col_topology: 'Topology', col_max_cluster: 'Max cluster (GPUs)',
    col_orchestration: 'Orchestration', col_provisioning: 'Provisioning', col_billing: 'Billing',
    col_storage: 'Shared storage', col_price: 'Price per GPU-hour', col_source: 'Source',
    n_offerings: n => `${n} offering${n === 1 ? '' : 's'}`, loading: 'Loading…',
    n_stale: ({ n }) => `${n} of them dated more than six months ago (prices' date where given)`,
    per_second: 'per second', per_minute: 'per minute', per_hour: 'per hour', per_s: s => `per ${s} s`,
    min_commit: h => `minimum ${h} h`, as_of: d => `as of ${d}`, source: 'source', sort_by: c => `Sort by ${c}`,
    reserved: 'reserved',
    plan_h: 'Plan a workload', p_workload: 'Workload', p_custom: 'Workload JSON (keys of data/workloads/*.json)',
    custom: 'custom JSON…', p_objective: 'Objective', obj_cost: 'lowest cost', obj_time: 'shortest time',
    p_deadline: 'Deadline in hours (2160 h = 90 days; empty = none)', p_budget: 'Budget (optional)', p_top: 'Rows',
    p_use_filters: 'Use the table\'s filters', p_filters_off: 'off: every offering is ranked',
    p_filters_none: 'the table has no filter set', p_run: 'Rank offerings', planning: 'Planning…',
    pc_rank: '#', pc_offering: 'Offering', pc_nodes: 'Nodes', pc_gpus: 'GPUs', pc_layout: 'Layout',
    goodput: 'goodput', goodput_title: 'Useful fraction of paid time: steady steps over the time with failures, restarts, checkpoints and input reads (docs/goodput.md).',
    band: 'p10–p90', band_title: "The model's error out of sample: the p10 and p90 of measured / predicted time on published runs from sources the model was never fitted on.",
    pc_step: 'Step time', pc_time: 'Time to train', pc_eff: 'Scaling efficiency E', pc_peff: 'Parallel efficiency P',
    pc_cost: 'Cost', pc_price: 'Price sticker → effective', pc_why: 'Why',
    assumes: 'Assumes', flag_reserved_price: 'reserved price (on-demand unknown)',
    flag_max_cluster_unknown: n => `largest cluster not stated, capped at ${n} GPUs`,
    flag_billing_increment_unknown: 'billing increment not stated, billed to the second',
    flag_min_commitment_unknown: 'minimum rental not stated, 1 h assumed',
    flag_gdr_unknown: 'GPUDirect RDMA not stated', flag_nics_per_node_unknown: 'NICs per node not stated, one per GPU assumed',
    flag_network_unknown: 'network between nodes not stated: one node only',
    flag_network_gbps_unknown: "network's Gbit/s per node not stated: one node only",
    flag_stale_price: a => `price dated ${a.d}, more than ${a.m} months old`,
    reserved_mark: 'reserved', dash_0: 'solid', dash_1: 'dashed', dash_2: 'dotted', dash_3: 'dash-dot', dash_4: 'short dashes',
    flag_non_blocking_unknown: 'non-blocking not stated, taken as not (congestion grows with nodes)',
    flag_rail_optimized_unknown: 'rail-optimized not stated, taken as not',
    flag_compute_efficiency_unvalidated: 'no published training row for this GPU, compute efficiency of the nearest validated generation assumed',
    unranked_h: 'Not ranked', ranked_n: (n, t) => t > n ? `${n} of ${t} ranked` : `${n} ranked`,
    p_tpot: 'TPOT target in ms (time per output token; empty = the workload\'s)',
    p_ttft: 'TTFT target in s (time to first token; empty = the workload\'s)',
    serve_goal: g => `cheapest per million output tokens, TPOT ≤ ${g.tpot} ms, TTFT ≤ ${g.ttft} s`,
    sc_mode: 'Pools', sc_colocated: 'one pool does both phases', sc_disaggregated: 'prefill and decode pools',
    sc_prefill: 'prefill', sc_decode: 'decode', sc_tok: 'Output tokens/s', sc_tpot: 'TPOT',
    sc_cpm_out: 'Cost per million output tokens', sc_cpm_in: 'per million input tokens',
    sc_price: 'Price per GPU-hour', sc_batch: b => `batch ${b} per GPU`,
    uk_price_unknown: 'no price', uk_currency: 'other currency', uk_gpu_unknown: 'GPU not in the hardware table',
    uk_gpus_per_node_unknown: 'no GPUs per node', uk_fabric: 'fabric facts missing',
    uk_precision: 'no tensor cores for the precision', uk_gpu_facts: 'GPU facts missing',
    uk_cluster: 'cluster under one node', uk_weights: 'weights do not fit', uk_kv_memory: 'no KV room beside the weights',
    uk_tpot: 'TPOT below one decode step', uk_ttft: 'TTFT below one prefill', uk_targets: 'targets not met together',
    uk_traffic: 'traffic beyond the largest cluster',
    plan_goal: g => (g.objective === 'time' ? 'fastest first' : 'cheapest first') +
      (g.deadline ? `, finishing within ${g.deadline}` : '') + (g.budget ? `, costing at most ${g.budget}` : ''),
    rc_none: 'no recompute', rc_selective: 'selective recompute', rc_full: 'full recompute',
    micro_batch: m => `micro-batch ${m}`,
    e_note_h: 'E above 1: memory relief, not scaling',
    e_split: a => `E ${a.e} = C ${a.c} (communication and bubbles) x memory relief ${a.m}: not ${a.p} % scaling.`,
    e_note_general: 'E above 1 means more throughput per GPU than on the smallest cluster the model fits on (N0). On N0 the model often fits only with ZeRO-3, activation recompute or more pipeline stages, which cost time; more nodes leave memory for a faster layout.',
    e_note_memory: a => `${a.name}: ${a.e} at ${a.n} nodes. On ${a.n0} node${a.n0 === 1 ? '' : 's'} the fastest layout that fits in memory is ${a.l0}; ${a.n} nodes have room for ${a.l}.`,
    e_note_other: a => `${a.name}: ${a.e} at ${a.n} nodes. On ${a.n0} node${a.n0 === 1 ? '' : 's'} the fastest layout is ${a.l0}; even without the memory limit none there is as fast per GPU as ${a.l} on ${a.n} nodes.`,
    chart_caption: 'Scaling efficiency by node count (one line per offering; markers and dash patterns tell them apart)',
    chart_x: 'nodes', chart_y: 'scaling efficiency E', no_curves: 'No scaling curves in this answer.',
    hours: 'h', minutes: 'min', seconds: 's', days: 'days',
    verify_h: 'Verify a rented cluster',
    verify_intro: 'Paste or upload nccl-tests output, an NCCL_DEBUG=INFO log, nvidia-smi topo -m or ibstat. The verdict says which transport NCCL really used, whether GPUDirect RDMA is on, and whether the bandwidth reaches the link; every finding names the line that proves it.',
    a_text: 'Log text', a_file: '…or a file', a_expect: 'Expected Gbit/s per node (optional)', a_run: 'Audit',
    a_offering: 'Offering the cluster was rented as (optional)', a_offering_none: 'none',
    src_page: "provider's page", src_user: 'your import', src_pipeline: c => `SkyPilot catalog ${c}`,
    prov_rated: r => `rated ${r}`, prov_sales: 'sales contact', prov_waitlist: 'waitlist',
    days_old: n => (+n === 0 ? 'today' : +n === 1 ? '1 day old' : `${num(n, 0)} days old`),
    a_field_expect: 'Expected Gbit/s per node', a_field_offering: 'Offering', a_field_file: 'file',
    a_both: 'Choose an offering or type the expected Gbit/s, not both.',
    a_verdict: 'Verdict', a_findings: 'Findings', auditing: 'Reading the log…', a_empty: 'Paste a log or choose a file first.',
    no_findings: 'No findings.', a_action: 'What to do',
    fact_network: 'Transport used', fact_gdr: 'GPUDirect RDMA', fact_nccl_version: 'NCCL version',
    fact_ranks: 'Ranks', fact_nodes: 'Nodes', fact_gpus_per_node: 'GPUs per node', fact_collective: 'Collective',
    fact_busbw: 'Bus bandwidth (GB/s)', fact_expected: 'Expected bus bandwidth (GB/s)',
    fact_nics: 'NICs used / on the node', fact_bw_judged: 'Bandwidth judged', bw_judged_yes: 'yes',
    bw_judged_no: 'no',
    st_ok: 'ok', st_unjudged: 'unjudged (bandwidth not compared)', st_warning: 'warning', st_failed: 'failed', st_invalid: 'invalid',
    error: 'Error', not_available: 'Not available in this build',
    footer: 'Every fact in the catalog comes with its source and date; unknown means no public source states it. Prices are never converted between currencies.',
    field: {
      id: 'Id', provider: 'Provider', offering: 'Offering', gpu: 'GPU', gpus_per_node: 'GPUs per node',
      gpu_memory_gb: 'GPU memory (GB)', intra_link: 'Intra-node link', network: 'Fabric',
      network_gbps_per_node: 'Gbit/s per node', nics_per_node: 'NICs per node', rdma: 'RDMA',
      gpudirect_rdma: 'GPUDirect RDMA', topology: 'Topology', non_blocking: 'Non-blocking',
      rail_optimized: 'Rail-optimized', max_cluster_gpus: 'Largest cluster (GPUs)', orchestration: 'Orchestration',
      provisioning: 'Provisioning', min_commitment_h: 'Minimum commitment (h)', billing_increment_s: 'Billing increment (s)',
      price_on_demand_gpu_hr: 'On-demand price per GPU-hour', price_reserved_gpu_hr: 'Reserved price per GPU-hour',
      currency: 'Currency', shared_storage: 'Shared storage', regions: 'Regions', multinode: 'Multi-node',
      notes: 'Notes', source_url: 'Sources', as_of: 'As of', age_days: 'Age (days)', user_row: 'Your own row',
      in_network_reduction: 'In-network reduction (SHARP)', price_spot_gpu_hr: 'Spot price per GPU-hour',
      price_as_of: 'Prices as of', price_source: 'Price source', price_age_days: 'Price age',
      provider_rating: 'Provider rating', provider_facts: 'Provider rating and terms'
    }
  },
  es: {
    skip: 'Saltar al contenido', language: 'Idioma', page_title: 'clusterfit — clústeres de GPU multinodo',
    tagline: 'Compare, planifique y verifique clústeres de GPU multinodo. Al alquilar muchos nodos alquila también la red que los une: la eficiencia de escalado decide la factura.',
    nav_compare: 'Comparar', nav_plan: 'Planificar', nav_verify: 'Verificar',
    compare_h: 'Comparar ofertas de clústeres', filters_h: 'Filtros',
    f_multinode: 'Multinodo', opt_multinode_yes: 'solo multinodo', opt_multinode_no: 'solo un nodo',
    opt_any: 'cualquiera', f_network: 'Red', f_rdma: 'RDMA', f_gdr: 'GPUDirect RDMA', f_gpu: 'GPU',
    f_min_gbps: 'Gbit/s mínimos por nodo', f_orchestration: 'Orquestación', f_provisioning: 'Contratación',
    f_max_price: 'Precio máximo por GPU-hora', f_currency: 'Moneda', f_provider: 'Proveedor',
    f_storage: 'Con almacenamiento compartido', apply: 'Aplicar filtros', reset: 'Restablecer',
    yes: 'sí', no: 'no', unknown: 'desconocido', close: 'Cerrar', details: 'Detalles de',
    guide_h: 'Antes de alquilar', guide_when_h: '¿Cuándo compensa usar varios nodos?',
    guide_when: 'Cuando el modelo con el estado del optimizador no cabe en la memoria de las GPU de un nodo, o cuando un solo nodo no llegaría a tiempo. Cada nodo añadido trae comunicación: con un 80 % de eficiencia de escalado paga una quinta parte de las GPU-horas sin recibir trabajo a cambio, así que compare el precio efectivo y no el de tarifa.',
    guide_fabric_h: '¿Qué red para qué trabajo?',
    guide_fabric: 'El preentrenamiento y el ajuste fino fragmentado (FSDP, ZeRO-3, paralelismo de tensor o de tubería entre nodos) mueven gradientes y pesos en cada paso: pida InfiniBand, RoCE o EFA con GPUDirect RDMA, idealmente una NIC de 400 Gbit/s por GPU. El entrenamiento paralelo de datos de modelos pequeños oculta gran parte del tráfico tras el cómputo y se arregla con 100–200 Gbit/s. Las simulaciones MPI con mensajes pequeños dependen de la latencia, donde InfiniBand va por delante. La inferencia por lotes y las tareas independientes apenas usan la red.',
    guide_check_h: 'Qué comprobar primero',
    guide_check1: 'Gbit/s y NIC por nodo, no por clúster; si GPUDirect RDMA está activado.',
    guide_check2: 'Topología: sin bloqueo, optimizada por raíles, y el mayor clúster que se alquila como una unidad.',
    guide_check3: 'Incremento de facturación y compromiso mínimo, almacenamiento compartido y la fecha del precio.',
    guide_check4: 'Cuando tenga los nodos, ejecute nccl-tests all_reduce entre ellos y pegue la salida abajo.',
    col_offering: 'Oferta', col_gpu: 'GPU', col_network: 'Red', col_gbps: 'Gbit/s por nodo',
    col_rdma: 'RDMA', col_gdr: 'GPUDirect RDMA', col_topology: 'Topología', col_max_cluster: 'Clúster máximo (GPU)',
    col_orchestration: 'Orquestación', col_provisioning: 'Contratación', col_billing: 'Facturación',
    col_storage: 'Almacenamiento compartido', col_price: 'Precio por GPU-hora', col_source: 'Fuente',
    n_offerings: n => `${n} oferta${n === 1 ? '' : 's'}`, loading: 'Cargando…',
    n_stale: ({ n }) => `${n} con fecha de hace más de seis meses (la de los precios si la hay)`,
    per_second: 'por segundo', per_minute: 'por minuto', per_hour: 'por hora', per_s: s => `por ${s} s`,
    min_commit: h => `mínimo ${h} h`, as_of: d => d, source: 'fuente', sort_by: c => `Ordenar por ${c}`,
    reserved: 'reservado',
    plan_h: 'Planificar una carga de trabajo', p_workload: 'Carga de trabajo', p_custom: 'JSON de la carga (claves de data/workloads/*.json)',
    custom: 'JSON propio…', p_objective: 'Objetivo', obj_cost: 'menor coste', obj_time: 'menor tiempo',
    p_deadline: 'Plazo en horas (2160 h = 90 días; vacío = sin plazo)', p_budget: 'Presupuesto (opcional)', p_top: 'Filas',
    p_use_filters: 'Usar los filtros de la tabla', p_filters_off: 'desactivado: se clasifican todas las ofertas',
    p_filters_none: 'la tabla no tiene filtros', p_run: 'Clasificar ofertas', planning: 'Planificando…',
    pc_rank: '#', pc_offering: 'Oferta', pc_nodes: 'Nodos', pc_gpus: 'GPU', pc_layout: 'Reparto',
    goodput: 'útil', goodput_title: 'Fracción útil del tiempo pagado: los pasos estables sobre el tiempo con fallos, reinicios, checkpoints y lectura de datos (docs/goodput.md).',
    band: 'p10–p90', band_title: 'El error del modelo fuera de muestra: los percentiles 10 y 90 de tiempo medido / predicho en ejecuciones publicadas de fuentes con las que el modelo nunca se ajustó.',
    pc_step: 'Tiempo por paso', pc_time: 'Tiempo de entrenamiento', pc_eff: 'Eficiencia de escalado E', pc_peff: 'Eficiencia paralela P',
    pc_cost: 'Coste', pc_price: 'Precio tarifa → efectivo', pc_why: 'Por qué',
    assumes: 'Supone', flag_reserved_price: 'precio reservado (bajo demanda desconocido)',
    flag_max_cluster_unknown: n => `clúster máximo no indicado, limitado a ${n} GPU`,
    flag_billing_increment_unknown: 'incremento de facturación no indicado, por segundo',
    flag_min_commitment_unknown: 'alquiler mínimo no indicado, se supone 1 h',
    flag_gdr_unknown: 'GPUDirect RDMA no indicado', flag_nics_per_node_unknown: 'NIC por nodo no indicadas, una por GPU supuesta',
    flag_network_unknown: 'red entre nodos no indicada: solo un nodo',
    flag_network_gbps_unknown: 'Gbit/s por nodo de la red no indicados: solo un nodo',
    flag_stale_price: a => `precio fechado ${a.day ? 'el' : 'en'} ${a.d}, de hace más de ${a.m} meses`,
    reserved_mark: 'reservado', dash_0: 'continua', dash_1: 'discontinua', dash_2: 'punteada', dash_3: 'raya-punto', dash_4: 'rayas cortas',
    flag_non_blocking_unknown: 'sin bloqueo no indicado, se supone que no (la congestión crece con los nodos)',
    flag_rail_optimized_unknown: 'optimización por raíles no indicada, se supone que no',
    flag_compute_efficiency_unvalidated: 'ninguna fila de entrenamiento publicada para esta GPU, eficiencia de cómputo de la generación validada más cercana supuesta',
    unranked_h: 'Sin clasificar', ranked_n: (n, t) => t > n ? `${n} de ${t} clasificadas` : `${n} clasificadas`,
    p_tpot: 'Objetivo de TPOT en ms (tiempo por token de salida; vacío = el de la carga)',
    p_ttft: 'Objetivo de TTFT en s (tiempo hasta el primer token; vacío = el de la carga)',
    serve_goal: g => `la más barata por millón de token de salida, TPOT ≤ ${g.tpot} ms, TTFT ≤ ${g.ttft} s`,
    sc_mode: 'Grupos', sc_colocated: 'un único grupo hace las dos fases', sc_disaggregated: 'grupos de prefill y de decodificación',
    sc_prefill: 'prefill', sc_decode: 'decodificación', sc_tok: 'Token de salida/s', sc_tpot: 'TPOT',
    sc_cpm_out: 'Coste por millón de token de salida', sc_cpm_in: 'por millón de token de entrada',
    sc_price: 'Precio por GPU-hora', sc_batch: b => `lote de ${b} por GPU`,
    uk_price_unknown: 'sin precio', uk_currency: 'otra moneda', uk_gpu_unknown: 'GPU fuera de la tabla de hardware',
    uk_gpus_per_node_unknown: 'sin GPU por nodo', uk_fabric: 'faltan datos de la red',
    uk_precision: 'sin núcleos tensoriales para la precisión', uk_gpu_facts: 'faltan datos de la GPU',
    uk_cluster: 'clúster menor que un nodo', uk_weights: 'los pesos no caben', uk_kv_memory: 'sin sitio para la caché KV junto a los pesos',
    uk_tpot: 'TPOT menor que un paso de decodificación', uk_ttft: 'TTFT menor que un prefill', uk_targets: 'objetivos no cumplidos a la vez',
    uk_traffic: 'tráfico mayor que el mayor clúster',
    plan_goal: g => (g.objective === 'time' ? 'la más rápida primero' : 'la más barata primero') +
      (g.deadline ? `, terminando en ${g.deadline}` : '') + (g.budget ? `, costando como mucho ${g.budget}` : ''),
    rc_none: 'sin recomputación', rc_selective: 'recomputación selectiva', rc_full: 'recomputación completa',
    micro_batch: m => `microlote ${m}`,
    e_note_h: 'E por encima de 1: alivio de memoria, no escalado',
    e_split: a => `E ${a.e} = C ${a.c} (comunicación y burbujas) x alivio de memoria ${a.m}: no es un escalado del ${a.p} %.`,
    e_note_general: 'E por encima de 1 significa más rendimiento por GPU que en el clúster más pequeño en que cabe el modelo (N0). En N0 el modelo a menudo solo cabe con ZeRO-3, recomputación de activaciones o más etapas de tubería, que cuestan tiempo; más nodos dejan memoria para un reparto más rápido.',
    e_note_memory: a => `${a.name}: ${a.e} con ${a.n} nodos. Con ${a.n0} nodo${a.n0 === 1 ? '' : 's'} el reparto más rápido que cabe en memoria es ${a.l0}; ${a.n} nodos dejan sitio para ${a.l}.`,
    e_note_other: a => `${a.name}: ${a.e} con ${a.n} nodos. Con ${a.n0} nodo${a.n0 === 1 ? '' : 's'} el reparto más rápido es ${a.l0}; aun sin el límite de memoria ninguno es allí tan rápido por GPU como ${a.l} con ${a.n} nodos.`,
    chart_caption: 'Eficiencia de escalado según el número de nodos (una línea por oferta; marcadores y trazos las distinguen)',
    chart_x: 'nodos', chart_y: 'eficiencia de escalado E', no_curves: 'Esta respuesta no trae curvas de escalado.',
    hours: 'h', minutes: 'min', seconds: 's', days: 'días',
    verify_h: 'Verificar un clúster alquilado',
    verify_intro: 'Pegue o suba la salida de nccl-tests, un registro NCCL_DEBUG=INFO, nvidia-smi topo -m o ibstat. El veredicto dice qué transporte usó NCCL de verdad, si GPUDirect RDMA está activo y si el ancho de banda llega al del enlace; cada hallazgo indica la línea que lo prueba.',
    a_text: 'Texto del registro', a_file: '…o un archivo', a_expect: 'Gbit/s esperados por nodo (opcional)', a_run: 'Auditar',
    a_offering: 'Oferta con la que se alquiló el clúster (opcional)', a_offering_none: 'ninguna',
    src_page: 'página del proveedor', src_user: 'su importación', src_pipeline: c => `catálogo de SkyPilot ${c}`,
    prov_rated: r => `valoración ${r}`, prov_sales: 'contacto comercial', prov_waitlist: 'lista de espera',
    days_old: n => (+n === 0 ? 'hoy' : +n === 1 ? 'de hace 1 día' : `de hace ${num(n, 0)} días`),
    a_field_expect: 'Gbit/s esperados por nodo', a_field_offering: 'Oferta', a_field_file: 'archivo',
    a_both: 'Elija una oferta o escriba los Gbit/s esperados, no las dos cosas.',
    a_verdict: 'Veredicto', a_findings: 'Hallazgos', auditing: 'Leyendo el registro…', a_empty: 'Pegue un registro o elija un archivo.',
    no_findings: 'Sin hallazgos.', a_action: 'Qué hacer',
    fact_network: 'Transporte usado', fact_gdr: 'GPUDirect RDMA', fact_nccl_version: 'Versión de NCCL',
    fact_ranks: 'Rangos', fact_nodes: 'Nodos', fact_gpus_per_node: 'GPU por nodo', fact_collective: 'Colectiva',
    fact_busbw: 'Ancho de banda de bus (GB/s)', fact_expected: 'Ancho de banda de bus esperado (GB/s)',
    fact_nics: 'NIC usadas / en el nodo', fact_bw_judged: 'Ancho de banda evaluado', bw_judged_yes: 'sí',
    bw_judged_no: 'no',
    st_ok: 'correcto', st_unjudged: 'sin juzgar (ancho de banda no comparado)', st_warning: 'aviso', st_failed: 'fallido', st_invalid: 'no válido',
    error: 'Error', not_available: 'No disponible en esta versión',
    footer: 'Cada dato del catálogo lleva su fuente y su fecha; desconocido significa que ninguna fuente pública lo indica. Los precios nunca se convierten entre monedas.',
    field: {
      id: 'Id', provider: 'Proveedor', offering: 'Oferta', gpu: 'GPU', gpus_per_node: 'GPU por nodo',
      gpu_memory_gb: 'Memoria de GPU (GB)', intra_link: 'Enlace dentro del nodo', network: 'Red',
      network_gbps_per_node: 'Gbit/s por nodo', nics_per_node: 'NIC por nodo', rdma: 'RDMA',
      gpudirect_rdma: 'GPUDirect RDMA', topology: 'Topología', non_blocking: 'Sin bloqueo',
      rail_optimized: 'Optimizada por raíles', max_cluster_gpus: 'Mayor clúster (GPU)', orchestration: 'Orquestación',
      provisioning: 'Contratación', min_commitment_h: 'Compromiso mínimo (h)', billing_increment_s: 'Incremento de facturación (s)',
      price_on_demand_gpu_hr: 'Precio bajo demanda por GPU-hora', price_reserved_gpu_hr: 'Precio reservado por GPU-hora',
      currency: 'Moneda', shared_storage: 'Almacenamiento compartido', regions: 'Regiones', multinode: 'Multinodo',
      notes: 'Notas', source_url: 'Fuentes', as_of: 'Fecha', age_days: 'Antigüedad (días)', user_row: 'Fila propia',
      in_network_reduction: 'Reducción en la red (SHARP)', price_spot_gpu_hr: 'Precio spot por GPU-hora',
      price_as_of: 'Fecha de los precios', price_source: 'Origen del precio', price_age_days: 'Antigüedad del precio',
      provider_rating: 'Valoración del proveedor', provider_facts: 'Valoración y condiciones del proveedor'
    }
  }
};

const FILTERS = ['multinode', 'network', 'rdma', 'gdr', 'gpu', 'min_gbps', 'orchestration',
  'provisioning', 'max_price', 'currency', 'provider', 'storage'];

const state = {
  lang: 'en', offerings: [], order: null, desc: false, plan: null, audit: null, detail: null,
  vocab: null
};

const $ = sel => document.querySelector(sel);
function T(key, ...args) {
  const d = I18N[state.lang], v = d[key] !== undefined ? d[key] : I18N.en[key];
  if (typeof v === 'function') return v(...args);
  return v !== undefined ? v : key;
}
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}
function unknown() { return el('span', { class: 'unknown', text: T('unknown') }); }
const isUnknown = v => v === null || v === undefined || (typeof v === 'number' && !isFinite(v));

/* --- formatting (Intl with the chosen language) --- */
function num(v, digits) {
  if (isUnknown(v)) return T('unknown');
  return new Intl.NumberFormat(state.lang, { maximumFractionDigits: digits === undefined ? 2 : digits }).format(v);
}
/* E, C, P and the memory relief: fractions to two places, as the CLI's
 * table prints them ("1.37", "0.90"). */
function frac(v) {
  if (isUnknown(v)) return T('unknown');
  return new Intl.NumberFormat(state.lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v);
}
function money(v, currency, opts) {
  if (isUnknown(v)) return T('unknown');
  if (!currency) return num(v) + ' (' + T('unknown') + ')';
  try {
    /* Prices (per GPU-hour) always to the cent; totals of 10,000 and more
     * in whole units, where cents carry no information. */
    const whole = opts && opts.total && Math.abs(v) >= 10000;
    return new Intl.NumberFormat(state.lang, { style: 'currency', currency,
      minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: whole ? 0 : 2 }).format(v);
  } catch (e) { return num(v) + ' ' + currency; }
}
/* A fraction as a percentage in the house's SI form, a space before % in
 * every language ("10 %", as the CLI and the library's sentences print it;
 * Intl's English would write "10%"). */
function pct(v) {
  if (isUnknown(v)) return T('unknown');
  return new Intl.NumberFormat(state.lang, { maximumFractionDigits: 1 }).format(v * 100) + '\u00a0%';
}
/* A date of the API (YYYY-MM-DD or YYYY-MM) in the page's locale: short
 * in cells ("14 abr 2025", "Apr 14, 2025"), `long` inside sentences
 * ("14 de abril de 2025"); the templates say "a"/"el"/"en" themselves. */
function date(s, long) {
  if (!s) return T('unknown');
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(s);
  if (!m) return s;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, m[3] ? +m[3] : 1));
  const month = long ? 'long' : 'short';
  const opts = m[3] ? { year: 'numeric', month, day: 'numeric', timeZone: 'UTC' }
                    : { year: 'numeric', month, timeZone: 'UTC' };
  return new Intl.DateTimeFormat(state.lang, opts).format(d);
}
/* The API's dates (YYYY-MM-DD) inside a text it gives (a provider's rating
 * "ClusterMAX 2.0 Platinum, 2025-11-06") in the page's form. */
function datesIn(s) { return String(s).replace(/\b\d{4}-\d{2}-\d{2}\b/g, d => date(d)); }
function duration(seconds) {
  if (isUnknown(seconds)) return T('unknown');
  if (seconds < 120) return num(seconds, seconds < 10 ? 3 : 1) + ' ' + T('seconds');
  if (seconds < 7200) return num(seconds / 60, 1) + ' ' + T('minutes');
  return num(seconds / 3600, 1) + ' ' + T('hours');
}
/* Time to train: hours below 48 h, days from there. */
function trainTime(h) {
  if (isUnknown(h)) return T('unknown');
  return h >= 48 ? num(h / 24, 1) + ' ' + T('days') : num(h, 1) + ' ' + T('hours');
}
/* "TP4 PP2v2 CP2 DP8" and, for an LLM layout, ZeRO and recompute in words. */
function degrees(l) {
  if (!l) return T('unknown');
  const d = [];
  if (l.tp > 1) d.push(`TP${l.tp}`);
  if (l.pp > 1) d.push(`PP${l.pp}${l.vp > 1 ? 'v2' : ''}`);
  if (l.cp > 1) d.push(`CP${l.cp}`);
  d.push(`DP${l.dp}`);
  return d.join(' ');
}
function layoutWords(l) {
  if (!l) return T('unknown');
  const w = [degrees(l)];
  if (l.zero > 0) w.push(`ZeRO-${l.zero}`);
  if (l.recompute) w.push(T('rc_' + l.recompute));
  return w.join(', ');
}
const E_NOTE_MIN = 1.05; /* CF_PLAN_E_NOTE_MIN: the API sends scaling_note above it */
/* E as the CLI prints it (a fraction, docs/model-step.md), and where the
 * point carries them its split into C and the memory relief, as `scale`'s
 * "E 1.37 = C 1.00 (communication and bubbles) x memory relief 1.37". */
function eNote(name, nodes, e, layout, note, pt) {
  const a = { name, n: num(nodes, 0), e: 'E ' + frac(e), n0: note.n0, l0: layoutWords(note.n0_layout), l: layoutWords(layout) };
  const split = pt && !isUnknown(pt.comm_efficiency) && !isUnknown(pt.memory_relief)
    ? ' ' + T('e_split', { e: frac(e), c: frac(pt.comm_efficiency), m: frac(pt.memory_relief), p: num(e * 100, 0) }) : '';
  return T(note.cause === 'memory' ? 'e_note_memory' : 'e_note_other', a) + split;
}
function cap(v) { return isUnknown(v) ? T('unknown') : (v === 'yes' || v === true ? T('yes') : v === 'no' || v === false ? T('no') : val(String(v), state.lang)); }
function list(v) {
  if (isUnknown(v)) return T('unknown');
  if (Array.isArray(v)) return v.length ? v.map(x => val(x, state.lang)).join(', ') : T('unknown');
  return val(String(v), state.lang);
}
function sources(v) {
  if (isUnknown(v)) return [];
  return (Array.isArray(v) ? v : String(v).split(/;\s*/)).filter(u => /^https?:\/\//.test(u));
}
function linkList(urls) {
  if (!urls.length) return unknown();
  const span = el('span', { class: 'links' });
  urls.forEach((u, i) => {
    let host = u;
    try { host = new URL(u).hostname; } catch (e) { /* keep the text */ }
    span.append(el('a', { href: u, rel: 'noopener noreferrer', target: '_blank', text: urls.length > 1 ? `${T('source')} ${i + 1}` : host }));
    if (i < urls.length - 1) span.append(' ');
  });
  return span;
}
function text(v) { return isUnknown(v) || v === '' ? unknown() : String(v); }

/* --- API --- */
async function api(path, opts) {
  const res = await fetch(path, opts);
  let body = null;
  try { body = await res.json(); } catch (e) { body = null; }
  if (!res.ok) {
    const msg = body && body.error ? body.error.message : res.statusText;
    const err = new Error(res.status === 501 ? `${T('not_available')}: ${msg}` : `${T('error')} ${res.status}: ${msg}`);
    err.status = res.status;
    throw err;
  }
  return body;
}

/* --- comparison table --- */
/* Where a price comes from and how old it is (issue 22): the API's
 * price_source (provider page, a pipeline snapshot with its commit, a user
 * import) and price_age_days; the row's date where it has no price. */
function priceSource(o) {
  if (isUnknown(listPrice(o)) || isUnknown(o.price_age_days)) return T('as_of', date(o.as_of));
  return `${priceKind(o.price_source)} · ${T('days_old', o.price_age_days)}`;
}
/* The API's price_source in the page's words. */
function priceKind(source) {
  const src = String(source || '');
  return src.startsWith('pipeline snapshot') ? T('src_pipeline', src.replace(/^pipeline snapshot /, '').split(' ')[0])
    : src.startsWith('user import') ? T('src_user') : src === 'provider page' ? T('src_page') : T('unknown');
}
/* A plan row's provider facts (issue 22): the provider table's published
 * rating and the sales-contact / waitlist provisioning a renter meets, as
 * the CLI's provider: line; nothing when the table states neither. */
function termsText(rating, prov) {
  return [isUnknown(rating) ? null : T('prov_rated', datesIn(rating)), prov.includes('sales-contact') ? T('prov_sales') : null,
    prov.includes('waitlist') ? T('prov_waitlist') : null].filter(Boolean).join(' · ');
}
function providerTerms(r) {
  const t = termsText(r.provider_rating, String(r.provider_provisioning || '').split(';'));
  return t ? [el('br'), el('small', { class: 'provider-terms', text: t })] : [];
}
/* A plan row's price origin and date (the row carries price_source and the
 * date its price was read, price_dated). */
function planPriceSource(r) {
  const kind = priceKind(r.price_source);
  return isUnknown(r.price_dated) ? kind : `${kind} · ${date(r.price_dated)}`;
}
function listPrice(o) { return isUnknown(o.price_on_demand_gpu_hr) ? o.price_reserved_gpu_hr : o.price_on_demand_gpu_hr; }
/* The key columns only, so they fit 1280 px without scrolling: RDMA,
 * topology, max cluster, orchestration, provisioning, billing, storage and
 * sources are in the detail view (the offering's button opens it). */
const COLUMNS = [
  { key: 'offering', label: 'col_offering', value: o => `${o.provider || ''} ${o.offering || ''}`,
    cell: o => el('button', { type: 'button', class: 'link', text: `${o.provider || T('unknown')} — ${o.offering || o.id}`,
      'aria-label': `${T('details')} ${o.provider || ''} ${o.offering || o.id}`, onclick: () => showDetail(o.id) }) },
  { key: 'gpu', label: 'col_gpu', value: o => o.gpu, cell: o => isUnknown(o.gpu) ? unknown()
      : `${o.gpu}${isUnknown(o.gpus_per_node) ? '' : ' ×' + num(o.gpus_per_node, 0)}` },
  { key: 'network', label: 'col_network', value: o => o.network, cell: o => isUnknown(o.network) ? unknown() : val(o.network, state.lang, 'network') },
  { key: 'gbps', label: 'col_gbps', value: o => o.network_gbps_per_node, num: true,
    cell: o => isUnknown(o.network_gbps_per_node) ? unknown()
      : num(o.network_gbps_per_node, 0) + (isUnknown(o.nics_per_node) ? '' : ` (${num(o.nics_per_node, 0)} NIC)`) },
  { key: 'gdr', label: 'col_gdr', value: o => o.gpudirect_rdma, cell: o => isUnknown(o.gpudirect_rdma) ? unknown() : cap(o.gpudirect_rdma) },
  /* The listed price: on-demand, else the reserved price marked so (the
   * library's cf_offering_list_price, which the API's max_price uses). */
  { key: 'price', label: 'col_price', value: o => listPrice(o), num: true,
    cell: o => el('span', {}, isUnknown(listPrice(o)) ? unknown() : money(listPrice(o), o.currency),
      isUnknown(o.price_on_demand_gpu_hr) && !isUnknown(o.price_reserved_gpu_hr) ? el('small', { text: ` (${T('reserved_mark')})` }) : null,
      el('br'), el('small', { class: 'price-src', text: priceSource(o) })) },
];

function renderHead() {
  const tr = $('#offerings-head');
  tr.replaceChildren();
  for (const c of COLUMNS) {
    const sorted = state.order === c.key;
    const th = el('th', { scope: 'col', 'aria-sort': sorted ? (state.desc ? 'descending' : 'ascending') : 'none' });
    th.append(el('button', { type: 'button', class: 'sort', 'data-col': c.key, 'aria-label': T('sort_by', T(c.label)),
      onclick: () => sortBy(c.key) }, T(c.label), el('span', { class: 'arrow', 'aria-hidden': 'true', text: sorted ? (state.desc ? ' ▼' : ' ▲') : '' })));
    tr.append(th);
  }
}

function sortedOfferings() {
  const rows = state.offerings.slice();
  const c = COLUMNS.find(x => x.key === state.order);
  if (!c) return rows;
  const coll = new Intl.Collator(state.lang, { numeric: true, sensitivity: 'base' });
  rows.sort((a, b) => {
    const va = c.value(a), vb = c.value(b);
    const ua = isUnknown(va) || va === '' || va === T('unknown'), ub = isUnknown(vb) || vb === '' || vb === T('unknown');
    if (ua || ub) return ua === ub ? 0 : ua ? 1 : -1;   /* unknown last, both directions */
    const r = c.num ? va - vb : coll.compare(String(va), String(vb));
    return state.desc ? -r : r;
  });
  return rows;
}

function renderTable() {
  renderHead();
  const tbody = $('#offerings tbody');
  tbody.replaceChildren();
  for (const o of sortedOfferings()) {
    const tr = el('tr', { 'data-id': o.id });
    for (const c of COLUMNS) tr.append(el('td', { 'data-col': c.key, 'data-label': T(c.label) }, c.cell(o)));
    tbody.append(tr);
  }
  $('#offerings-status').textContent = T('n_offerings', state.offerings.length);
  renderStaleNote();
}

// Issue 13: how many listed rows are older than six months. The server marks
// each row (`stale`, the library's rule: price_as_of where set, else as_of);
// the page only counts them.
function renderStaleNote() {
  const p = $('#offerings-stale');
  if (!p) return;
  const stale = state.offerings.filter(o => o.stale === true).length;
  p.textContent = stale ? T('n_stale', { n: stale }) : '';
}

function sortBy(key) {
  if (state.order === key) state.desc = !state.desc;
  else { state.order = key; state.desc = false; }
  writeUrl();
  renderTable();
  const b = document.querySelector(`#offerings-head button[data-col="${key}"]`);
  if (b) b.focus();
}

/* The page URL holds the filters (as API parameters), the order, the open
 * offering and the language. multinode=any means no multi-node filter; no
 * multinode parameter means the default, multi-node only. */
function readUrl() {
  const p = new URLSearchParams(location.search);
  for (const k of FILTERS) {
    const input = document.getElementById('f-' + k);
    const v = p.get(k);
    if (k === 'storage') input.checked = v === 'yes';
    else if (k === 'multinode') input.value = v === 'no' || v === 'any' ? v : 'yes';
    else if (v !== null) {
      if (input.tagName === 'SELECT' && ![...input.options].some(o => o.value === v)) input.append(el('option', { value: v, text: v }));
      input.value = v;
    } else input.value = '';
  }
  state.order = p.get('order');
  state.desc = p.get('desc') === '1';
  state.detail = p.get('offering');
  const lang = p.get('lang');
  if (lang && I18N[lang]) state.lang = lang;
}

function filterParams() {
  const p = new URLSearchParams();
  for (const k of FILTERS) {
    const input = document.getElementById('f-' + k);
    if (k === 'storage') { if (input.checked) p.set(k, 'yes'); continue; }
    let v = input.value.trim();
    if (k === 'currency') v = v.toUpperCase();
    if (k === 'multinode' && v === 'any') continue;
    if (v !== '') p.set(k, v);
  }
  return p;
}

/* The plan form's filter line: which of the table's filters the plan uses,
 * shown beside the box (off by default: the plan ranks every offering). */
function renderPlanFilters() {
  const box = $('#p-use-filters'), out = $('#p-filters-summary');
  if (!box || !out) return;
  const f = [...filterParams()].map(([k, v]) => `${T('f_' + k) || k}: ${v}`);
  out.textContent = box.checked ? (f.length ? f.join('; ') : T('p_filters_none')) : T('p_filters_off');
}

function writeUrl() {
  const p = filterParams();
  if ($('#f-multinode').value === 'any') p.set('multinode', 'any');
  if (state.order) p.set('order', state.order);
  if (state.order && state.desc) p.set('desc', '1');
  if (state.detail) p.set('offering', state.detail);
  if (state.lang !== 'en') p.set('lang', state.lang);
  const q = p.toString();
  history.replaceState(null, '', q ? '?' + q + location.hash : location.pathname + location.hash);
}

/* Filters can change faster than the API answers (two selects in a row):
 * only the latest request's answer is shown, and the table stays busy until
 * it has come, so an older answer arriving last never replaces a newer one. */
let offeringsSeq = 0;
async function loadOfferings() {
  const seq = ++offeringsSeq;
  $('#offerings-status').textContent = T('loading');
  $('#offerings').setAttribute('aria-busy', 'true');
  let rows, failure = null;
  try {
    rows = await api('/api/offerings?' + filterParams().toString());
  } catch (e) {
    rows = [];
    failure = e;
  }
  if (seq !== offeringsSeq) return;
  state.offerings = rows;
  renderTable();
  if (failure) $('#offerings-status').textContent = failure.message;
  $('#offerings').removeAttribute('aria-busy');
}

/* --- detail view --- */
async function showDetail(id) {
  state.detail = id;
  writeUrl();
  const sec = $('#detail');
  try {
    const o = await api('/api/offerings/' + encodeURIComponent(id));
    renderDetail(o);
    sec.hidden = false;
    sec.focus();
  } catch (e) {
    $('#detail-h').textContent = id;
    $('#detail-list').replaceChildren(el('dd', { text: e.message }));
    sec.hidden = false;
  }
}

const FREE_TEXT = new Set(['id', 'provider', 'offering', 'gpu', 'topology', 'notes', 'currency']);
function renderDetail(o) {
  state.detailData = o;
  $('#detail-h').textContent = `${o.provider || T('unknown')} — ${o.offering || o.id}`;
  const dl = $('#detail-list');
  dl.replaceChildren();
  const f = I18N[state.lang].field;
  for (const [k, v] of Object.entries(o)) {
    let dd;
    if (k === 'source_url') dd = linkList(sources(v));
    /* The provider table's facts (GET /api/offerings/{id}, as show's): its
     * rating and sales-contact / waitlist terms, as the plan rows give them. */
    else if (k === 'provider_facts') dd = isUnknown(v) ? unknown()
      : (termsText(v.rating_text, [].concat(v.provisioning || [])) || unknown());
    else if (k === 'as_of' || k === 'price_as_of') dd = isUnknown(v) ? unknown() : date(v);
    else if (k === 'price_source') dd = isUnknown(v) ? unknown() : String(v);
    else if (k === 'price_age_days') dd = isUnknown(v) ? unknown() : T('days_old', v);
    else if (k.startsWith('price_')) dd = isUnknown(v) ? unknown() : money(v, o.currency);
    else if (Array.isArray(v)) dd = v.length ? v.map(x => val(x, state.lang, k)).join(', ') : unknown();
    else if (typeof v === 'number') dd = num(v);
    else if (typeof v === 'boolean') dd = cap(v);
    else if (v === 'yes' || v === 'no') dd = cap(v);
    else if (['gpudirect_rdma', 'origin'].includes(k)) dd = cap(v);
    /* A vocabulary value in the page's language; names and the catalog's
     * own sentences (topology, notes) as the source wrote them. */
    else if (typeof v === 'string' && v !== '' && !FREE_TEXT.has(k)) dd = val(v, state.lang, k);
    else dd = text(v);
    dl.append(el('dt', { text: f[k] || k }), el('dd', {}, dd));
  }
}

function closeDetail() {
  $('#detail').hidden = true;
  state.detail = null;
  state.detailData = null;
  writeUrl();
  const b = document.querySelector('#offerings tbody button');
  if (b) b.focus();
}

/* --- plan --- */
async function loadVocab() {
  try { state.vocab = await api('/api/vocab'); } catch (e) { state.vocab = null; }
  const v = state.vocab || {};
  /* every value /api/vocab gives, "unknown" (a row no source states the
   * fact for) in the page's language, as the table shows it */
  const fill = (id, values, kind) => {
    const s = document.getElementById(id);
    for (const x of values || []) s.append(el('option', { value: x, 'data-val': kind, text: val(x, state.lang, kind) }));
  };
  fill('f-network', v.network, 'network');
  fill('f-gpu', v.gpu, 'gpu');
  fill('f-orchestration', v.orchestration, 'orchestration');
  fill('f-provisioning', v.provisioning, 'provisioning');
  const w = $('#p-workload');
  for (const x of v.workloads || []) w.append(el('option', { value: x, text: x }));
  w.append(el('option', { value: '__custom', 'data-i18n': 'custom', text: T('custom') }));
  w.value = (v.workloads || []).includes('llama3-70b') ? 'llama3-70b' : w.options[0].value;
  $('#p-custom-field').hidden = w.value !== '__custom';
  $('#p-custom').placeholder = '{"kind": "llm", ...}';
  servePlanFields();
}

/* Whether the plan form's workload is a serve one: a serve preset (the
 * API's serve_workloads) or custom JSON of kind serve. */
function planIsServe() {
  const w = $('#p-workload').value;
  if (w === '__custom') { try { return JSON.parse($('#p-custom').value).kind === 'serve'; } catch (e) { return false; } }
  return ((state.vocab || {}).serve_workloads || []).includes(w);
}
/* A serve workload is ranked under latency targets, not a deadline or a
 * budget: the form shows the fields its plan takes. */
function servePlanFields() {
  const serve = planIsServe();
  for (const id of ['p-tpot', 'p-ttft']) $('#' + id).closest('.field').hidden = !serve;
  for (const id of ['p-objective', 'p-deadline', 'p-budget']) $('#' + id).closest('.field').hidden = serve;
}

async function runPlan(ev) {
  ev.preventDefault();
  const body = {};
  const w = $('#p-workload').value;
  const status = $('#plan-status');
  if (w === '__custom') {
    try { body.workload = JSON.parse($('#p-custom').value); } catch (e) { status.textContent = `${T('error')}: ${e.message}`; return; }
  } else body.workload = w;
  const top = parseInt($('#p-top').value, 10);
  if (planIsServe()) {
    const tp = parseFloat($('#p-tpot').value), tt = parseFloat($('#p-ttft').value);
    if (isFinite(tp)) body.tpot_ms = tp;
    if (isFinite(tt)) body.ttft_s = tt;
  } else {
    body.objective = $('#p-objective').value;
    const dl = parseFloat($('#p-deadline').value), bu = parseFloat($('#p-budget').value);
    if (isFinite(dl)) body.deadline_h = dl;
    if (isFinite(bu)) body.budget = bu;
  }
  if (isFinite(top)) body.top = top;
  if ($('#p-use-filters').checked) {
    const f = {};
    for (const [k, v] of filterParams()) f[k] = v;
    if ($('#f-multinode').value === 'any') delete f.multinode;
    body.filters = f;
  }
  status.textContent = T('planning');
  state.planGoal = { objective: body.objective, deadline_h: body.deadline_h, budget: body.budget };
  $('#p-run').disabled = true;
  try {
    state.plan = await api('/api/plan', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    renderPlan();
  } catch (e) {
    state.plan = null;
    $('#plan-result').hidden = true;
    status.textContent = e.message;
  }
  $('#p-run').disabled = false;
}

/* A serve plan (docs/model-serve.md "Plan"): per row the pools, their
 * layouts, output tokens/s and the cost per million tokens, the why under
 * it; the unranked counted by kind of reason. */
/* The library's p10-p90 band of a serve figure (cf_serve_band), as the
 * training rows show theirs; nothing where the row has none (a stated
 * traffic). */
function serveBand(text, lo) {
  if (isUnknown(lo)) return [];
  return [el('br'), el('small', { class: 'band', title: T('band_title'), text: `${T('band')} ${text}` })];
}

function renderServePlan(p) {
  const ranked = p.ranked || [], tg = p.targets || {};
  $('#plan-status').textContent = `${T('ranked_n', ranked.length, p.ranked_total)}: ${T('serve_goal', { tpot: num(tg.tpot_ms), ttft: num(tg.ttft_s) })}.`;
  const cols = ['pc_rank', 'pc_offering', 'pc_nodes', 'sc_mode', 'sc_tok', 'sc_cpm_out', 'sc_price'];
  $('#plan-table thead tr').replaceChildren(...cols.map(k => el('th', { scope: 'col', text: T(k) })));
  const td = (k, attrs, ...kids) => el('td', Object.assign({ 'data-label': T(k) }, attrs), ...kids);
  const pool = (k, ph) => `${T(k)} ${gen(ph.layout, state.lang)} ×${num(ph.instances, 0)}`;
  const tbody = $('#plan-table tbody');
  tbody.replaceChildren();
  ranked.forEach((r, i) => {
    const pre = r.prefill || {}, dec = r.decode || {};
    tbody.append(el('tr', { 'data-id': r.offering_id },
      td('pc_rank', { class: 'rank', text: num(i + 1, 0) }),
      td('pc_offering', { class: 'offering' }, el('button', { type: 'button', class: 'link', text: `${r.provider || ''} — ${r.offering || r.offering_id}`, onclick: () => showDetail(r.offering_id) })),
      td('pc_nodes', { class: 'num' }, num(r.nodes, 0), el('br'), el('small', { text: `${num(r.gpus, 0)} ${T('pc_gpus')}` })),
      td('sc_mode', { class: 'layout' }, T('sc_' + r.mode), el('br'),
        el('small', { text: r.mode === 'colocated' ? pool('sc_decode', dec) : `${pool('sc_prefill', pre)} · ${pool('sc_decode', dec)}` })),
      td('sc_tok', { class: 'num' }, num(r.output_tokens_per_s, 0), el('br'),
        el('small', { text: `${T('sc_tpot')} ${num(dec.tpot_ms, 1)} ms · ${T('sc_batch', num(dec.batch_per_gpu, 0))}` }),
        ...serveBand(`${num(r.output_tokens_per_s_p10, 0)}–${num(r.output_tokens_per_s_p90, 0)}`, r.output_tokens_per_s_p10)),
      td('sc_cpm_out', { class: 'num' }, money(r.cost_per_m_output, p.currency), isUnknown(r.cost_per_m_input) ? null : el('br'),
        isUnknown(r.cost_per_m_input) ? null : el('small', { text: `${money(r.cost_per_m_input, p.currency)} ${T('sc_cpm_in')}` }),
        ...serveBand(`${money(r.cost_per_m_output_p10, p.currency)}–${money(r.cost_per_m_output_p90, p.currency)}`, r.cost_per_m_output_p10)),
      td('sc_price', { class: 'price', text: money(r.price_gpu_hr, p.currency) })));
    tbody.append(el('tr', { class: 'why-row', 'data-why-for': r.offering_id },
      el('td', { colspan: String(cols.length), class: 'why' }, el('span', { class: 'why-text', text: `${T('pc_why')}: ${gen(r.why, state.lang)}` }))));
  });
  const un = $('#plan-unranked');
  un.replaceChildren();
  if ((p.unranked || []).length) {
    const det = el('details', { class: 'unranked-box' },
      el('summary', {}, el('h3', { text: `${T('unranked_h')} (${num(p.unranked.length, 0)})` })));
    const ul = el('ul', { class: 'unranked' });
    for (const k of p.unranked_by_kind || []) {
      const first = p.unranked.find(u => u.offering_id === k.offering_ids[0]);
      ul.append(el('li', {}, el('strong', { text: `${T('uk_' + k.kind)} (${num(k.count, 0)})` }), `: ${k.offering_ids.join(', ')}`,
        first ? el('br') : null, first ? el('small', { text: gen((first.reasons || [])[0] || '', state.lang) }) : null));
    }
    det.append(ul);
    un.append(det);
  }
  $('#chart').hidden = true;      /* scaling efficiency is a training figure */
  $('#chart-svg').replaceChildren();
  renderENote([], []);
  $('#plan-result').hidden = false;
}

function renderPlan() {
  const p = state.plan;
  if (!p) return;
  if (p.kind === 'serve') return renderServePlan(p);
  $('#chart').hidden = false;
  const ranked = p.ranked || [];
  const g = state.planGoal || {};
  $('#plan-status').textContent = `${T('ranked_n', ranked.length, p.ranked_total)}: ${T('plan_goal', {
    objective: g.objective,
    deadline: g.deadline_h ? (g.deadline_h >= 48 ? `${num(g.deadline_h, 0)} ${T('hours')} (${trainTime(g.deadline_h)})` : trainTime(g.deadline_h)) : '',
    budget: g.budget ? money(g.budget, p.currency, { total: true }) : ''
  })}.`;
  const head = $('#plan-table thead tr');
  const cols = ['pc_rank', 'pc_offering', 'pc_nodes', 'pc_layout', 'pc_step', 'pc_time', 'pc_eff',
    'pc_peff', 'pc_cost', 'pc_price'];
  head.replaceChildren(...cols.map(k => el('th', { scope: 'col', text: T(k) })));
  const td = (k, attrs, ...kids) => el('td', Object.assign({ 'data-label': T(k) }, attrs), ...kids);
  const tbody = $('#plan-table tbody');
  tbody.replaceChildren();
  ranked.forEach((r, i) => {
    const lay = { tp: r.tp, pp: r.pp, vp: r.vp, dp: r.dp, cp: r.cp, zero: r.zero, recompute: r.recompute };
    const extra = [lay.zero > 0 ? `ZeRO-${lay.zero}` : null, r.recompute ? T('rc_' + r.recompute) : null,
      isUnknown(r.micro_batch) ? null : T('micro_batch', r.micro_batch)].filter(Boolean).join(' · ');
    const eCell = td('pc_eff', { class: 'num', text: frac(r.scaling_efficiency) });
    if (r.scaling_note) {
      eCell.append(el('a', { href: '#chart-note', class: 'note-ref', title: eNote(r.offering || r.offering_id, r.nodes, r.scaling_efficiency, lay, r.scaling_note), text: '*' }));
    }
    tbody.append(el('tr', { 'data-id': r.offering_id },
      td('pc_rank', { class: 'rank', text: num(i + 1, 0) }),
      td('pc_offering', { class: 'offering' }, el('button', { type: 'button', class: 'link', text: `${r.provider || ''} — ${r.offering || r.offering_id}`, onclick: () => showDetail(r.offering_id) }), ...providerTerms(r)),
      td('pc_nodes', { class: 'num' }, num(r.nodes, 0), el('br'), el('small', { text: `${num(r.gpus, 0)} ${T('pc_gpus')}` })),
      td('pc_layout', { class: 'layout' }, degrees(lay), el('br'), el('small', { text: extra })),
      td('pc_step', { text: duration(r.step_time_s) }),
      td('pc_time', { class: 'time' }, trainTime(r.time_to_train_h), el('br'),
        el('small', { class: 'band', title: T('band_title'), text: `${T('band')} ${trainTime(r.time_to_train_h_p10)}–${trainTime(r.time_to_train_h_p90)}` }),
        isUnknown(r.goodput) ? null : el('br'),
        isUnknown(r.goodput) ? null : el('small', { class: 'goodput', title: T('goodput_title'), text: `${T('goodput')} ${pct(r.goodput)}` })),
      eCell, td('pc_peff', { class: 'num', text: frac(r.parallel_efficiency) }),
      td('pc_cost', { class: 'num' }, money(r.cost, p.currency, { total: true }), el('br'),
        el('small', { class: 'band', title: T('band_title'), text: `${money(r.cost_p10, p.currency, { total: true })}–${money(r.cost_p90, p.currency, { total: true })}` })),
      td('pc_price', { class: 'price' }, money(r.sticker_price_gpu_hr, p.currency), el('br'),
        el('small', { text: `→ ${money(r.effective_price_gpu_hr, p.currency)}` }),
        r.price_source ? el('br') : null,
        r.price_source ? el('small', { class: 'price-src', text: planPriceSource(r) }) : null)));
    /* The why, and the row's assumptions in words, on a line under the row
     * (as the CLI prints them), so the ranked rows stay one line high. */
    /* network_gbps_unknown says what network_unknown would (one node only) more precisely. */
    const flags = (r.flags || []).filter(f => !(f === 'network_unknown' && (r.flags || []).includes('network_gbps_unknown')));
    const assumes = flags.map(f => f === 'max_cluster_unknown' ? T('flag_' + f, num(g.max_gpus || 16384, 0))
      : f === 'stale_price' ? T('flag_' + f, { d: date(r.price_dated, true), day: /^\d{4}-\d{2}-\d{2}$/.test(r.price_dated || ''), m: p.stale_months || 6 })
      : (I18N.en['flag_' + f] !== undefined ? T('flag_' + f) : f));
    const whyCell = el('td', { colspan: String(cols.length), class: 'why' }, el('span', { class: 'why-text', text: `${T('pc_why')}: ${r.why ? gen(r.why, state.lang) : T('unknown')}` }));
    if (assumes.length) whyCell.append(el('br'), el('span', { class: 'assumes', text: `${T('assumes')}: ${assumes.join('; ')}` }));
    tbody.append(el('tr', { class: 'why-row', 'data-why-for': r.offering_id }, whyCell));
  });
  const un = $('#plan-unranked');
  un.replaceChildren();
  if ((p.unranked || []).length) {
    const det = el('details', { class: 'unranked-box' },
      el('summary', {}, el('h3', { text: `${T('unranked_h')} (${num(p.unranked.length, 0)})` })));
    un.append(det);
    const ul = el('ul', { class: 'unranked' });
    for (const u of p.unranked) ul.append(el('li', { text: `${u.offering_id}: ${(u.reasons || []).map(x => gen(x, state.lang)).join(', ') || T('unknown')}` }));
    det.append(ul);
  }
  renderChart(p.scaling || []);
  renderENote(ranked, p.scaling || []);
  $('#plan-result').hidden = false;
}

/* The note under the chart: why E exceeds 1, one line per offering (its
 * curve's highest E, else its ranked row), built from the API's layouts in
 * the page's language. */
function renderENote(ranked, curves) {
  const box = $('#chart-note');
  box.replaceChildren();
  const lines = [], seen = new Set();
  for (const c of curves) {
    const pts = (c.points || []).filter(pt => pt.scaling_note && !isUnknown(pt.scaling_efficiency) && pt.scaling_efficiency > E_NOTE_MIN);
    if (!pts.length) continue;
    const best = pts.reduce((a, b) => (b.scaling_efficiency > a.scaling_efficiency ? b : a));
    lines.push(eNote(`${c.provider || ''} ${c.offering || c.offering_id}`.trim(), best.nodes, best.scaling_efficiency, best.layout, best.scaling_note, best));
    seen.add(c.offering_id);
  }
  for (const r of ranked) {
    if (!r.scaling_note || seen.has(r.offering_id)) continue;
    const lay = { tp: r.tp, pp: r.pp, vp: r.vp, dp: r.dp, cp: r.cp, zero: r.zero, recompute: r.recompute };
    lines.push(eNote(`${r.provider || ''} ${r.offering || r.offering_id}`.trim(), r.nodes, r.scaling_efficiency, lay, r.scaling_note));
    seen.add(r.offering_id);
  }
  if (!lines.length) { box.hidden = true; return; }
  box.append(el('h3', { text: '* ' + T('e_note_h') }), el('p', { text: T('e_note_general') }));
  const ul = el('ul');
  for (const t of lines) ul.append(el('li', { text: t }));
  box.append(ul);
  box.hidden = false;
}

/* SVG chart: x = nodes (log2), y = scaling efficiency 0–1. Each line has its
 * own dash pattern and marker shape and a label at its end, so it reads in
 * grey print and for colour-blind readers. */
const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'cross'];
const DASHES = ['', '8 4', '2 4', '10 4 2 4', '4 4'];
/* The markers in text, for the legend under a narrow chart. */
const LEGEND_KEYS = ['●', '■', '▲', '◆', '✚'];
function marker(shape, x, y) {
  const ns = 'http://www.w3.org/2000/svg';
  let m;
  if (shape === 'circle') { m = document.createElementNS(ns, 'circle'); m.setAttribute('cx', x); m.setAttribute('cy', y); m.setAttribute('r', 4); }
  else if (shape === 'square') { m = document.createElementNS(ns, 'rect'); m.setAttribute('x', x - 4); m.setAttribute('y', y - 4); m.setAttribute('width', 8); m.setAttribute('height', 8); }
  else {
    m = document.createElementNS(ns, 'polygon');
    const pts = shape === 'triangle' ? [[0, -5], [5, 4], [-5, 4]] : shape === 'diamond' ? [[0, -5], [5, 0], [0, 5], [-5, 0]]
      : [[-5, -2], [-2, -2], [-2, -5], [2, -5], [2, -2], [5, -2], [5, 2], [2, 2], [2, 5], [-2, 5], [-2, 2], [-5, 2]];
    m.setAttribute('points', pts.map(([a, b]) => `${x + a},${y + b}`).join(' '));
  }
  return m;
}
function renderChart(curves) {
  const host = $('#chart-svg');
  host.replaceChildren();
  const lines = curves.filter(c => Array.isArray(c.points) && c.points.some(pt => !isUnknown(pt.scaling_efficiency)));
  if (!lines.length) { host.append(el('p', { text: T('no_curves') })); return; }
  const ns = 'http://www.w3.org/2000/svg';
  /* Drawn at its box's width (at most 720 units), so that text stays 11-12 px
   * on a phone; there the line labels go under the chart instead of beside. */
  const boxW = host.clientWidth || (host.parentElement && host.parentElement.clientWidth) || 720;
  const narrow = boxW < 520;
  rerenderOnResize(host, () => renderChart(curves));
  const W = Math.max(300, Math.min(720, boxW)), H = narrow ? 300 : 340, L = 56, R = narrow ? 14 : 190, Tp = 16, B = 44;
  const all = lines.flatMap(c => c.points.filter(pt => !isUnknown(pt.scaling_efficiency)).map(pt => pt.nodes));
  const x0 = Math.log2(Math.max(1, Math.min(...all))), x1 = Math.max(x0 + 1, Math.log2(Math.max(...all)));
  /* Efficiency can exceed 1 (at N0 a model that barely fits pays for full
   * recompute; more nodes free memory): the axis reaches the largest value. */
  const effs = lines.flatMap(c => c.points.map(pt => pt.scaling_efficiency).filter(e => !isUnknown(e)));
  const yMax = Math.max(1, Math.ceil(Math.max(...effs) * 4) / 4);
  const X = n => L + (Math.log2(n) - x0) / (x1 - x0) * (W - L - R);
  const Y = e => Tp + (1 - Math.max(0, Math.min(yMax, e)) / yMax) * (H - Tp - B);
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', T('chart_caption'));
  const add = (tag, attrs, txt) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (txt !== undefined) e.textContent = txt;
    svg.append(e);
    return e;
  };
  const step = yMax > 2 ? 0.5 : 0.25;
  for (let e = 0; e <= yMax + 1e-9; e += step) {
    add('line', { x1: L, x2: W - R, y1: Y(e), y2: Y(e), class: Math.abs(e - 1) < 1e-9 && yMax > 1 ? 'grid ref' : 'grid' });
    add('text', { x: L - 6, y: Y(e) + 4, 'text-anchor': 'end', class: 'tick' }, frac(e));
  }
  for (let k = Math.ceil(x0); k <= Math.floor(x1); k++) {
    add('line', { x1: X(2 ** k), x2: X(2 ** k), y1: H - B, y2: H - B + 5, class: 'axis' });
    add('text', { x: X(2 ** k), y: H - B + 18, 'text-anchor': 'middle', class: 'tick' }, num(2 ** k, 0));
  }
  add('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis' });
  add('line', { x1: L, x2: L, y1: Tp, y2: H - B, class: 'axis' });
  add('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', class: 'label' }, T('chart_x'));
  add('text', { x: 14, y: (Tp + H - B) / 2, 'text-anchor': 'middle', class: 'label', transform: `rotate(-90 14 ${(Tp + H - B) / 2})` }, T('chart_y'));
  const ends = [];
  lines.forEach((c, i) => {
    const pts = c.points.filter(pt => !isUnknown(pt.scaling_efficiency)).sort((a, b) => a.nodes - b.nodes);
    const g = document.createElementNS(ns, 'g');
    g.setAttribute('class', `series s${i}`);
    const path = document.createElementNS(ns, 'polyline');
    path.setAttribute('points', pts.map(pt => `${X(pt.nodes)},${Y(pt.scaling_efficiency)}`).join(' '));
    path.setAttribute('fill', 'none');
    if (DASHES[i % DASHES.length]) path.setAttribute('stroke-dasharray', DASHES[i % DASHES.length]);
    g.append(path);
    for (const pt of pts) {
      const m = marker(MARKERS[i % MARKERS.length], X(pt.nodes), Y(pt.scaling_efficiency));
      const t = document.createElementNS(ns, 'title');
      t.textContent = `${c.provider || ''} ${c.offering || c.offering_id}: ${num(pt.nodes, 0)} ${T('chart_x')}, E ${frac(pt.scaling_efficiency)}`;
      m.append(t);
      g.append(m);
    }
    svg.append(g);
    const last = pts[pts.length - 1];
    ends.push({ y: Y(last.scaling_efficiency), x: X(last.nodes), label: `${c.provider || ''} ${c.offering || c.offering_id}`.trim(), i });
  });
  /* Direct labels at the line ends, pushed apart so they do not overlap. */
  ends.sort((a, b) => a.y - b.y);
  for (let k = 1; k < ends.length; k++) if (ends[k].y - ends[k - 1].y < 14) ends[k].y = ends[k - 1].y + 14;
  if (narrow) {
    host.append(svg);
    const ul = el('ul', { class: 'chart-legend' });
    ends.sort((a, b) => a.i - b.i);
    for (const e of ends) ul.append(el('li', { class: `s${e.i}` }, el('span', { class: 'legend-key', 'aria-hidden': 'true', text: `${LEGEND_KEYS[e.i % LEGEND_KEYS.length]} ${T('dash_' + (e.i % LEGEND_KEYS.length))}` }), e.label));
    host.append(ul);
    return;
  }
  for (const e of ends) {
    const lx = W - R + 10;
    add('line', { x1: e.x + 6, x2: lx - 2, y1: e.y, y2: e.y, class: 'leader' });
    const m = marker(MARKERS[e.i % MARKERS.length], lx + 4, e.y);
    m.setAttribute('class', `s${e.i} legend-marker`);
    svg.append(m);
    const label = e.label.length > 24 ? e.label.slice(0, 23) + '…' : e.label;
    add('text', { x: lx + 12, y: e.y + 4, class: 'series-label' }, label);
  }
  host.append(svg);
}

/* --- is a better fabric worth it? (POST /api/fabrics) ---
 * Self-contained: its strings (added to both languages here), its form, its
 * chart. The chart has two panels of horizontal bars, one row per fabric:
 * the worth premium over the baseline (from a zero line; negative premiums
 * hatched and to the left) and the time to train. Every bar carries its
 * fabric's name and its value as text, so it reads without colour. */
Object.assign(I18N.en, {
  fx_nav: 'Fabrics', fx_h: 'Is a better fabric worth it?',
  fx_intro: 'The same job on the same nodes over each fabric family, at the same NICs and line rate and the same global batch (the one the cluster grows to on InfiniBand at that node count): how much longer the job takes, and how many percent more per GPU-hour each fabric may cost than the baseline before the whole job costs more.',
  fx_nodes: 'Nodes', fx_deadline: 'or a deadline in hours (replaces nodes)', fx_baseline: 'Baseline',
  fx_nics: 'NICs per node (empty = usual)', fx_nic_gbps: 'Gbit/s per NIC (empty = usual)',
  fx_non_blocking: 'Non-blocking', fx_rail_optimized: 'Rail-optimized', fx_run: 'Compare fabrics',
  fx_running: 'Comparing fabrics…',
  fx_caption: 'Worth premium per GPU-hour over the baseline, and time to train, per fabric (each bar carries its fabric and value; negative premiums are hatched)',
  fx_premium_axis: b => `Worth premium vs ${b} (% per GPU-hour)`, fx_time_axis: 'Time to train',
  fx_baseline_bar: 'baseline', fx_no_result: 'no result',
  fx_col_fabric: 'Fabric', fx_col_nodes: 'Nodes', fx_col_batch: 'Global batch (sequences)', fx_col_step: 'Step time', fx_col_eff: 'Scaling efficiency',
  fx_col_time: 'Time to train', fx_col_gpuh: 'GPU-hours', fx_col_premium: 'Worth premium', fx_col_notes: 'Notes',
  fx_flag_does_not_fit: 'does not fit in memory on that many nodes',
  fx_flag_deadline_missed: 'misses the deadline on every node count',
  fx_more_than_sold: (n) => `more than sold (largest: ${n} nodes)`,
  fx_not_compared: 'not compared',
  fx_on_nodes: (a) => `${a.w} on ${a.n} nodes of ${a.g} × ${a.gpu}, ${a.nics} × ${a.gbps} Gbit/s NICs per node on every fabric.`,
  fx_in_time: (a) => `${a.w} within ${a.h} h, each fabric on the fewest nodes that meet it (${a.g} × ${a.gpu} per node, ${a.nics} × ${a.gbps} Gbit/s NICs).`,
  fx_best: (a) => `Break-even: ${a.best} may cost up to ${a.p} more per GPU-hour than ${a.base} before the whole job costs more (equal total cost: ${a.basis}).`,
  fx_none_better: (a) => `Break-even: no fabric is worth more per GPU-hour than ${a.base} for this job (equal total cost: ${a.basis}).`,
  fx_no_base: b => `Break-even: ${b} has no result here, so no premium is defined.`,
  fx_basis_time: 'T baseline / T fabric − 1', fx_basis_gpuh: 'GPU-hours on the baseline / GPU-hours on the fabric − 1',
  fx_assumes: 'Assumes',
  fx_sold_h: 'As sold', fx_equal_h: 'At equal line rate',
  fx_bundle: (a) => `${a.net} ${a.nics} × ${a.gbps} Gbit/s`,
  fx_bundle_nonics: (a) => `${a.net} ${a.gbps} Gbit/s per node (NICs not stated)`,
  fx_more: n => `+${n} more`,
  fx_sold_best: (a) => `As sold with ${a.gpu}: ${a.best} (${a.bids}) is worth ${a.p} per GPU-hour over ${a.base} (${a.baseids}) for this job.`,
  fx_sold_money: (a) => ` At the baseline's cheapest ${a.pb} (${a.pbid}) it breaks even up to ${a.be}, ${a.w} more per GPU-hour.`,
  fx_sold_noprice: ' The baseline states no price, so the worth stays a percentage.',
  fx_sold_cost: (a) => ` It sells from ${a.pf} (${a.pfid}), so the job costs ${a.cf} against ${a.cb}.`,
  fx_sold_one: (a) => `As sold: the catalog sells ${a.gpu} with ${a.base} (${a.baseids}) and no other bundle with a stated line rate, so there is no as-sold comparison (the equal-line-rate view below compares the families).`,
  fx_sold_none: (a) => `As sold: the catalog sells no multi-node ${a.gpu} bundle whose network and line rate it states, so there is nothing to compare as sold (the equal-line-rate view below compares the families).`,
  fx_not_sold: (a) => `Not sold with ${a.gpu} as a multi-node bundle with a stated line rate: ${a.list}.`,
  fx_unstated: (a) => `${a.net} (${a.id} names it without a line rate or node size: unknown, not modelled)`,
  fx_unnamed: (a) => `${a.list}: no offering of ${a.gpu} names them`,
  fx_scol_bundle: 'Bundle', fx_scol_price: 'Cheapest price', fx_scol_worth: 'Worth per GPU-hour',
  fx_scol_be: 'Break-even price', fx_scol_cost: 'Job cost', fx_scol_offerings: 'Sold by (cheapest first)'
});
Object.assign(I18N.es, {
  fx_nav: 'Redes', fx_h: '¿Compensa una red mejor?',
  fx_intro: 'El mismo trabajo en los mismos nodos con cada familia de red, con las mismas NIC y velocidad de línea y el mismo lote global (el que alcanza el clúster con InfiniBand con ese número de nodos): cuánto más tarda el trabajo y cuánto más por GPU-hora puede costar cada red que la de referencia antes de que el trabajo entero cueste más.',
  fx_nodes: 'Nodos', fx_deadline: 'o un plazo en horas (sustituye a los nodos)', fx_baseline: 'Referencia',
  fx_nics: 'NIC por nodo (vacío = las habituales)', fx_nic_gbps: 'Gbit/s por NIC (vacío = los habituales)',
  fx_non_blocking: 'Sin bloqueo', fx_rail_optimized: 'Optimizada por raíles', fx_run: 'Comparar redes',
  fx_running: 'Comparando redes…',
  fx_caption: 'Sobreprecio que compensa por GPU-hora frente a la referencia, y tiempo de entrenamiento, por red (cada barra lleva su red y su valor; los sobreprecios negativos van rayados)',
  fx_premium_axis: b => `Sobreprecio frente a ${b} (% por GPU-hora)`, fx_time_axis: 'Tiempo de entrenamiento',
  fx_baseline_bar: 'referencia', fx_no_result: 'sin resultado',
  fx_col_fabric: 'Red', fx_col_nodes: 'Nodos', fx_col_batch: 'Lote global (secuencias)', fx_col_step: 'Tiempo por paso', fx_col_eff: 'Eficiencia de escalado',
  fx_col_time: 'Tiempo de entrenamiento', fx_col_gpuh: 'GPU-horas', fx_col_premium: 'Sobreprecio que compensa', fx_col_notes: 'Notas',
  fx_flag_does_not_fit: 'no cabe en memoria en esos nodos',
  fx_flag_deadline_missed: 'no cumple el plazo con ningún número de nodos',
  fx_more_than_sold: (n) => `más de lo que se vende (máximo: ${n} nodos)`,
  fx_not_compared: 'no comparado',
  fx_on_nodes: (a) => `${a.w} en ${a.n} nodos de ${a.g} × ${a.gpu}, ${a.nics} × ${a.gbps} Gbit/s de NIC por nodo en todas las redes.`,
  fx_in_time: (a) => `${a.w} en ${a.h} h como máximo, cada red con los menos nodos que lo cumplen (${a.g} × ${a.gpu} por nodo, ${a.nics} × ${a.gbps} Gbit/s de NIC).`,
  fx_best: (a) => `Punto de equilibrio: ${a.best} puede costar hasta un ${a.p} más por GPU-hora que ${a.base} antes de que el trabajo entero cueste más (igual coste total: ${a.basis}).`,
  fx_none_better: (a) => `Punto de equilibrio: ninguna red compensa pagar más por GPU-hora que ${a.base} para este trabajo (igual coste total: ${a.basis}).`,
  fx_no_base: b => `Punto de equilibrio: ${b} no tiene resultado aquí, así que no hay sobreprecio definido.`,
  fx_basis_time: 'T referencia / T red − 1', fx_basis_gpuh: 'GPU-horas con la referencia / GPU-horas con la red − 1',
  fx_assumes: 'Supone',
  fx_sold_h: 'Tal como se venden', fx_equal_h: 'A igual velocidad de línea',
  fx_bundle: (a) => `${a.net} ${a.nics} × ${a.gbps} Gbit/s`,
  fx_bundle_nonics: (a) => `${a.net} ${a.gbps} Gbit/s por nodo (NIC sin indicar)`,
  fx_more: n => `y ${n} más`,
  fx_sold_best: (a) => `Tal como se venden con ${a.gpu}: ${a.best} (${a.bids}) compensa un ${a.p} más por GPU-hora que ${a.base} (${a.baseids}) para este trabajo.`,
  fx_sold_money: (a) => ` Al precio más barato de la referencia, ${a.pb} (${a.pbid}), queda en equilibrio hasta ${a.be}: ${a.w} más por GPU-hora.`,
  fx_sold_noprice: ' La referencia no indica precio, así que el valor queda en porcentaje.',
  fx_sold_cost: (a) => ` Se vende desde ${a.pf} (${a.pfid}), así que el trabajo cuesta ${a.cf} frente a ${a.cb}.`,
  fx_sold_one: (a) => `Tal como se venden: el catálogo vende ${a.gpu} con ${a.base} (${a.baseids}) y ningún otro paquete con velocidad de línea indicada, así que no hay comparación tal como se venden (la vista a igual velocidad de línea, abajo, compara las familias).`,
  fx_sold_none: (a) => `Tal como se venden: el catálogo no vende ningún paquete multinodo de ${a.gpu} con red y velocidad de línea indicadas, así que no hay nada que comparar (la vista a igual velocidad de línea, abajo, compara las familias).`,
  fx_not_sold: (a) => `No se vende con ${a.gpu} como paquete multinodo con velocidad de línea indicada: ${a.list}.`,
  fx_unstated: (a) => `${a.net} (${a.id} la nombra sin velocidad de línea o tamaño de nodo: desconocida, no se modela)`,
  fx_unnamed: (a) => `${a.list}: ninguna oferta de ${a.gpu} las nombra`,
  fx_scol_bundle: 'Paquete', fx_scol_price: 'Precio más barato', fx_scol_worth: 'Valor por GPU-hora',
  fx_scol_be: 'Precio de equilibrio', fx_scol_cost: 'Coste del trabajo', fx_scol_offerings: 'Lo venden (más barato primero)'
});
const FX_LABELS = { ib: 'InfiniBand', roce: 'RoCE', efa: 'EFA', tcpxo: 'GPUDirect-TCPXO', tcpx: 'GPUDirect-TCPX', tcp: 'TCP', rdma: 'RDMA' };
const fxLabel = n => FX_LABELS[n] || n;

function initFabrics() {
  const v = state.vocab || {};
  const w = $('#fx-workload'), g = $('#fx-gpu');
  for (const x of v.workloads || []) w.append(el('option', { value: x, text: x }));
  for (const x of v.gpu || []) g.append(el('option', { value: x, text: x }));
  if ((v.workloads || []).includes('llama3-70b')) w.value = 'llama3-70b';
  if ((v.gpu || []).includes('H100-SXM')) g.value = 'H100-SXM';
  $('#fx-form').addEventListener('submit', runFabrics);
}

async function runFabrics(ev) {
  ev.preventDefault();
  const body = { workload: $('#fx-workload').value, gpu: $('#fx-gpu').value, baseline: $('#fx-baseline').value };
  const dl = parseFloat($('#fx-deadline').value), n = parseInt($('#fx-nodes').value, 10);
  const nics = parseInt($('#fx-nics').value, 10), gbps = parseFloat($('#fx-nic_gbps').value);
  if (isFinite(dl)) body.deadline_h = dl; else if (isFinite(n)) body.nodes = n;
  if (isFinite(nics)) body.nics = nics;
  if (isFinite(gbps)) body.nic_gbps = gbps;
  for (const k of ['non_blocking', 'rail_optimized']) if ($('#fx-' + k).value !== 'unknown') body[k] = $('#fx-' + k).value;
  const status = $('#fx-status');
  status.textContent = T('fx_running');
  $('#fx-run').disabled = true;
  try {
    state.fabrics = await api('/api/fabrics', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    renderFabrics();
  } catch (e) {
    state.fabrics = null;
    $('#fx-result').hidden = true;
    status.textContent = e.message;
  }
  $('#fx-run').disabled = false;
}

/* A step time: milliseconds below 0.1 s (a stencil iteration), else as duration(). */
function fxStep(v) {
  if (isUnknown(v)) return T('unknown');
  return v < 0.1 ? num(v * 1000, 3) + ' ms' : duration(v);
}
/* Time to train: below an hour in minutes or seconds, else as trainTime(). */
function fxHours(h) {
  if (isUnknown(h)) return T('unknown');
  return h < 1 ? duration(h * 3600) : trainTime(h);
}
function fxPremium(v) {
  if (isUnknown(v)) return T('fx_no_result');
  return (v > 0 ? '+' : '') + num(v, 1) + ' %';
}
function fxNotes(f) {
  return (f.flags || []).map(c => c.startsWith('non_blocking') || c.startsWith('rail_optimized')
    ? T('flag_' + c) : T('fx_flag_' + c));
}

/* --- fabrics as sold: the bundles the catalog sells with the GPU (the
 * library's `sold`: which bundle is the baseline and which the best are
 * its choice; the page only words them, numbers in the page's locale). */
function fxBundleWords(b) {
  const a = { net: fxLabel(b.network), nics: num(b.nics_stated, 0), gbps: num(b.nic_gbps) };
  return isUnknown(b.nics_stated) ? T('fx_bundle_nonics', { net: a.net, gbps: num(b.gbps_per_node) }) : T('fx_bundle', a);
}
function fxIds(b) {
  const ids = (b.offerings || []).slice(0, 2);
  const more = (b.n_offerings || 0) - ids.length;
  return ids.join(', ') + (more > 0 ? ', ' + T('fx_more', more) : '');
}
function fxSoldSentence(d, s) {
  const bs = s.bundles || [];
  if (!bs.length) return T('fx_sold_none', { gpu: d.gpu });
  const base = bs[s.baseline];
  const cur = s.currency;
  if (isUnknown(s.best)) return T('fx_sold_one', { gpu: d.gpu, base: fxBundleWords(base), baseids: fxIds(base) });
  const best = bs[s.best];
  let out = T('fx_sold_best', { gpu: d.gpu, best: fxBundleWords(best), bids: fxIds(best), p: fxPremium(best.worth_premium_pct),
    base: fxBundleWords(base), baseids: fxIds(base) });
  if (isUnknown(base.price_gpu_hr)) out += T('fx_sold_noprice');
  else out += T('fx_sold_money', { pb: money(base.price_gpu_hr, cur) + '/GPU-h', pbid: base.price_offering,
    be: money(best.break_even_price_gpu_hr, cur) + '/GPU-h', w: money(best.worth_gpu_hr, cur) });
  if (!isUnknown(best.price_gpu_hr) && !isUnknown(best.job_cost) && !isUnknown(base.job_cost))
    out += T('fx_sold_cost', { pf: money(best.price_gpu_hr, cur) + '/GPU-h', pfid: best.price_offering,
      cf: money(best.job_cost, cur, { total: true }), cb: money(base.job_cost, cur, { total: true }) });
  return out;
}
function fxNotSold(d, s) {
  const ns = s.not_sold || [];
  if (!ns.length) return '';
  const named = ns.filter(f => f.n_unstated > 0).map(f => T('fx_unstated', { net: fxLabel(f.network), id: f.unstated_offerings[0] }));
  const unnamed = ns.filter(f => !(f.n_unstated > 0)).map(f => fxLabel(f.network));
  if (unnamed.length) named.push(T('fx_unnamed', { list: unnamed.join(', '), gpu: d.gpu }));
  return T('fx_not_sold', { gpu: d.gpu, list: named.join('; ') });
}
function renderFabricsSold(d) {
  const s = d.sold || { bundles: [], not_sold: [] };
  const bs = s.bundles || [];
  $('#fx-sold-sentence').textContent = fxSoldSentence(d, s);
  $('#fx-sold-wrap').hidden = !bs.length;
  const cur = s.currency;
  $('#fx-sold-table thead tr').replaceChildren(...['fx_scol_bundle', 'fx_col_nodes', 'fx_col_time', 'fx_col_premium', 'fx_scol_price',
    'fx_scol_worth', 'fx_scol_be', 'fx_scol_cost', 'fx_scol_offerings'].map(k => el('th', { scope: 'col', text: T(k) })));
  $('#fx-sold-table tbody').replaceChildren(...bs.map(b => el('tr', { 'data-network': b.network, 'data-gbps': b.gbps_per_node },
    el('th', { scope: 'row', text: fxBundleWords(b) }),
    el('td', { class: 'num', text: num(b.nodes, 0) + ((b.flags || []).includes('larger_than_sold')
      ? ' (' + T('fx_more_than_sold', num(b.largest_sold_nodes, 0)) + ')' : '') }),
    el('td', { class: 'num', text: fxHours(b.time_to_train_h) }),
    el('td', { class: 'num', text: b.is_baseline && !isUnknown(b.worth_premium_pct) ? T('fx_baseline_bar') : fxPremium(b.worth_premium_pct) }),
    el('td', { class: 'num', text: !isUnknown(b.price_gpu_hr) ? money(b.price_gpu_hr, cur)
      : b.price_other ? money(b.price_other.price_gpu_hr, b.price_other.currency) + ' (' + T('fx_not_compared') + ')'
      : T('unknown') }),
    el('td', { class: 'num', text: isUnknown(b.worth_gpu_hr) ? T('unknown') : money(b.worth_gpu_hr, cur) }),
    el('td', { class: 'num', text: isUnknown(b.break_even_price_gpu_hr) ? T('unknown') : money(b.break_even_price_gpu_hr, cur) }),
    el('td', { class: 'num', text: isUnknown(b.job_cost) ? T('unknown') : money(b.job_cost, cur, { total: true }) }),
    el('td', { class: 'ids', text: (b.offerings || []).join(', ') }))));
  $('#fx-not-sold').textContent = fxNotSold(d, s);
}

function renderFabrics() {
  const d = state.fabrics;
  if (!d) return;
  const rows = d.fabrics || [];
  const r0 = rows[0] || {};
  const a = { w: d.workload, n: num(d.nodes, 0), h: num(d.deadline_h), g: num(d.gpus_per_node, 0), gpu: d.gpu,
    nics: num(r0.nics, 0), gbps: num(r0.nic_gbps) };
  $('#fx-status').textContent = isUnknown(d.nodes) ? T('fx_in_time', a) : T('fx_on_nodes', a);
  const base = rows.find(f => f.network === d.baseline);
  const others = rows.filter(f => f !== base && !isUnknown(f.worth_premium_pct));
  const best = others.reduce((b, f) => (!b || f.worth_premium_pct > b.worth_premium_pct ? f : b), null);
  const basis = T(d.premium_basis === 'gpu_hours' ? 'fx_basis_gpuh' : 'fx_basis_time');
  let sentence;
  if (!base || isUnknown(base.worth_premium_pct)) sentence = T('fx_no_base', fxLabel(d.baseline));
  else if (best && best.worth_premium_pct > 0)
    sentence = T('fx_best', { best: fxLabel(best.network), p: num(best.worth_premium_pct, 1) + ' %', base: fxLabel(d.baseline), basis });
  else sentence = T('fx_none_better', { base: fxLabel(d.baseline), basis });
  $('#fx-sentence').textContent = sentence;
  /* A global batch of sequences belongs to training jobs: a stencil or a
   * batch job has none, and the column is left out rather than "unknown". */
  const hasBatch = rows.some(f => !isUnknown(f.global_batch_seqs));
  const head = $('#fx-table thead tr');
  head.replaceChildren(...['fx_col_fabric', 'fx_col_nodes', hasBatch ? 'fx_col_batch' : null, 'fx_col_step', 'fx_col_eff', 'fx_col_time', 'fx_col_gpuh',
    'fx_col_premium', 'fx_col_notes'].filter(Boolean).map(k => el('th', { scope: 'col', text: T(k) })));
  const tb = $('#fx-table tbody');
  tb.replaceChildren(...rows.map(f => el('tr', { 'data-network': f.network },
    el('th', { scope: 'row', text: fxLabel(f.network) }),
    el('td', { class: 'num', text: num(f.nodes, 0) }),
    hasBatch ? el('td', { class: 'num', text: num(f.global_batch_seqs, 0) }) : null,
    el('td', { class: 'num', text: fxStep(f.step_time_s) }),
    el('td', { class: 'num', text: frac(f.scaling_efficiency) }),
    el('td', { class: 'time' }, fxHours(f.time_to_train_h), el('br'),
      el('small', { class: 'band', title: T('band_title'), text: `${T('band')} ${fxHours(f.time_to_train_h_p10)}–${fxHours(f.time_to_train_h_p90)}` })),
    el('td', { class: 'num', text: num(f.gpu_hours, f.gpu_hours < 100 ? 2 : 0) }),
    el('td', { class: 'num', text: f === base && !isUnknown(f.worth_premium_pct) ? T('fx_baseline_bar') : fxPremium(f.worth_premium_pct) }),
    el('td', { text: fxNotes(f).join('; ') }))));
  const ul = $('#fx-assumes');
  ul.replaceChildren(...[...(d.assumes || []), ...((d.sold && d.sold.assumes) || [])]
    .map(t => el('li', { text: `${T('fx_assumes')}: ${gen(t, state.lang)}` })));
  renderFabricsSold(d);
  renderFabricsChart(d, rows, base);
  $('#fx-result').hidden = false;
}

function renderFabricsChart(d, rows, base) {
  const ns = 'http://www.w3.org/2000/svg';
  const host = $('#fx-svg');
  host.replaceChildren();
  /* Side by side at 760 units on a wide box; on a narrow one (a phone) the
   * time panel goes under the premium one and the chart is drawn at the box's
   * width, so that its 11-12 px text stays 11-12 px on screen. */
  const boxW = host.clientWidth || (host.parentElement && host.parentElement.clientWidth) || 760;
  const narrow = boxW < 600;
  const rowH = 30, Tp = 34, B = 16, L = narrow ? 112 : 130, GAP = 40;
  const W = narrow ? Math.max(300, Math.floor(boxW)) : 760;
  const P1 = narrow ? W - L - 16 : 300, P2 = narrow ? W - L + 6 : W - L - P1 - GAP - 20;
  const panelH = rows.length * rowH;
  const tY = narrow ? Tp + panelH + Tp : Tp; /* the time panel's first row */
  const H = tY + panelH + B;
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', T('fx_caption'));
  svg.setAttribute('id', 'fx-chart-svg');
  const mk = (parent, tag, attrs, txt) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (txt !== undefined) e.textContent = txt;
    parent.append(e);
    return e;
  };
  /* Hatching for negative premiums: a pattern, not a colour. */
  const defs = mk(svg, 'defs', {});
  const pat = mk(defs, 'pattern', { id: 'fx-hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  mk(pat, 'rect', { width: 6, height: 6, class: 'fx-hatch-bg' });
  mk(pat, 'line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'fx-hatch-line' });
  const prem = rows.map(f => f.worth_premium_pct).filter(v => !isUnknown(v));
  const lo = Math.min(0, ...prem), hi = Math.max(0, ...prem);
  const span = Math.max(1, hi - lo);
  const X0 = L + 10 + (P1 - 90) * (-lo / span);      /* the zero line; room for value labels */
  const XP = v => X0 + v / span * (P1 - 90);
  const times = rows.map(f => f.time_to_train_h).filter(v => !isUnknown(v));
  const tMax = Math.max(...times, 1e-9);
  const T0 = narrow ? L + 10 : L + P1 + GAP;
  const XT = v => T0 + v / tMax * (P2 - 90);
  mk(svg, 'text', { x: narrow ? 4 : L + 10, y: 14, class: 'label' }, T('fx_premium_axis', d.baseline));
  mk(svg, 'text', { x: narrow ? 4 : T0, y: tY - 20, class: 'label' }, T('fx_time_axis'));
  mk(svg, 'line', { x1: X0, x2: X0, y1: Tp - 8, y2: Tp + panelH + 4, class: 'axis' });
  mk(svg, 'line', { x1: T0, x2: T0, y1: tY - 8, y2: tY + panelH + 4, class: 'axis' });
  rows.forEach((f, i) => {
    const y = Tp + i * rowH, mid = y + rowH / 2, ty = tY + i * rowH, tmid = ty + rowH / 2;
    const g = mk(svg, 'g', { class: 'fx-row', 'data-network': f.network });
    mk(g, 'text', { x: L, y: mid + 4, 'text-anchor': 'end', class: 'fx-name' }, fxLabel(f.network));
    if (narrow) mk(g, 'text', { x: L, y: tmid + 4, 'text-anchor': 'end', class: 'fx-name fx-name-time' }, fxLabel(f.network));
    /* premium bar */
    const pg = mk(g, 'g', { class: 'fx-bar fx-premium', 'data-network': f.network });
    const p = f.worth_premium_pct;
    let ptext;
    if (isUnknown(p)) {
      ptext = fxNotes(f)[0] || T('fx_no_result');
      mk(pg, 'text', { x: X0 + 6, y: mid + 4, class: 'fx-value' }, ptext);
    } else {
      const x1 = XP(Math.min(0, p)), w = Math.max(1.5, Math.abs(XP(p) - X0));
      ptext = f === base ? `${fxPremium(p)} (${T('fx_baseline_bar')})` : fxPremium(p);
      mk(pg, 'rect', { x: x1, y: y + 6, width: w, height: rowH - 12, class: p < 0 ? 'fx-neg' : 'fx-pos' });
      /* A negative bar's value goes right of the zero line: the left holds the names. */
      mk(pg, 'text', { x: p < 0 ? X0 + 4 : x1 + w + 4, y: mid + 4, class: 'fx-value' }, ptext);
    }
    mk(pg, 'title', {}, `${fxLabel(f.network)}: ${ptext}`);
    /* time bar */
    const tg = mk(g, 'g', { class: 'fx-bar fx-time', 'data-network': f.network });
    const t = f.time_to_train_h;
    const ttext = isUnknown(t) ? T('fx_no_result') : fxHours(t);
    if (!isUnknown(t)) mk(tg, 'rect', { x: T0, y: ty + 6, width: Math.max(1.5, XT(t) - T0), height: rowH - 12, class: 'fx-tbar' });
    mk(tg, 'text', { x: isUnknown(t) ? T0 + 6 : XT(t) + 4, y: tmid + 4, class: 'fx-value' }, ttext);
    mk(tg, 'title', {}, `${fxLabel(f.network)}: ${ttext}`);
  });
  host.append(svg);
  rerenderOnResize(host, () => renderFabricsChart(d, rows, base));
}

/* Draws a chart again when its box changes width by more than 40 px (a
 * phone turned, a window resized, a box laid out after the chart was
 * drawn), so that its text keeps its size on screen. One observer a box. */
function rerenderOnResize(host, draw) {
  if (typeof ResizeObserver === 'undefined') return;
  host._draw = draw;
  host._drawnW = host.clientWidth;
  if (host._ro) return;
  host._ro = new ResizeObserver(() => {
    const w = host.clientWidth;
    if (!w || Math.abs(w - (host._drawnW || 0)) <= 40) return;
    host._drawnW = w;
    host._draw();
  });
  host._ro.observe(host);
}

/* --- audit --- */
async function runAudit(ev) {
  ev.preventDefault();
  const status = $('#audit-status');
  const file = $('#a-file').files[0];
  const txt = $('#a-text').value;
  const expect = parseFloat($('#a-expect').value);
  const offering = $('#a-offering').value;
  if (offering && isFinite(expect) && expect > 0) { status.textContent = T('a_both'); return; }
  const q = offering ? '?offering=' + encodeURIComponent(offering)
    : isFinite(expect) && expect > 0 ? '?expect_gbps=' + encodeURIComponent(expect) : '';
  let opts;
  if (file) {
    const fd = new FormData();
    fd.append('file', file, file.name);
    opts = { method: 'POST', body: fd };
  } else if (txt.trim()) {
    opts = { method: 'POST', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: txt };
  } else { status.textContent = T('a_empty'); return; }
  status.textContent = T('auditing');
  $('#a-run').disabled = true;
  try {
    state.audit = await api('/api/audit' + q, opts);
    renderAudit();
    status.textContent = '';
  } catch (e) {
    state.audit = null;
    $('#audit-verdict').hidden = true;
    status.textContent = e.message;
  }
  $('#a-run').disabled = false;
}

/* The library's advice names the tool's flags; the page names its own fields
 * instead (the audit form's labels, in the page's language). */
function pageFields(text) {
  return String(text)
    .replace(/--expect-gbps N(?: \([^)]*\))?/g, `“${T('a_field_expect')}”`)
    .replace(/--offering(?: ID)?/g, `“${T('a_field_offering')}”`);
}

/* The offerings of the catalog in the audit form's picker (once). */
async function loadAuditOfferings() {
  const sel = $('#a-offering');
  if (sel.options.length > 1) return;
  let rows = [];
  try { rows = await api('/api/offerings'); } catch (e) { return; }
  rows.sort((a, b) => String(a.provider).localeCompare(String(b.provider)) || String(a.id).localeCompare(String(b.id)));
  for (const o of rows) sel.append(el('option', { value: o.id, text: `${o.provider || ''} — ${o.offering || o.id} (${o.id})` }));
}

function renderAudit() {
  const r = state.audit;
  if (!r) return;
  const st = $('#a-status');
  /* verdict (status is its alias, kept for older scripts) */
  st.textContent = r.verdict ? T('st_' + r.verdict) : T('unknown');
  st.className = 'badge ' + (r.verdict || 'unknown');
  const facts = $('#a-facts');
  facts.replaceChildren();
  const rows = [['fact_network', r.network], ['fact_gdr', r.gdr], ['fact_nccl_version', r.nccl_version],
    ['fact_ranks', r.ranks], ['fact_nodes', r.nodes], ['fact_gpus_per_node', r.gpus_per_node],
    ['fact_collective', r.collective], ['fact_busbw', r.busbw_GBps], ['fact_expected', r.expected_busbw_GBps]];
  for (const [k, v] of rows) facts.append(el('dt', { text: T(k) }), el('dd', {}, isUnknown(v) ? unknown() : typeof v === 'number' ? num(v) : val(String(v), state.lang)));
  /* the model's out-of-sample band of the expectation, as the text report */
  if (!isUnknown(r.expected_busbw_GBps_p10) && !isUnknown(r.expected_busbw_GBps_p90))
    facts.lastChild.append(el('span', { id: 'a-expected-band', text: ` (p10–p90 ${num(r.expected_busbw_GBps_p10)}–${num(r.expected_busbw_GBps_p90)})` }));
  if (!isUnknown(r.nics_used) || !isUnknown(r.node_nics)) {
    const n = (v) => isUnknown(v) ? T('unknown') : String(v);
    const src = isUnknown(r.node_nics_source) ? '' : ` (${val(r.node_nics_source, state.lang)})`;
    facts.append(el('dt', { text: T('fact_nics') }), el('dd', { id: 'a-nics', text: `${n(r.nics_used)} / ${n(r.node_nics)}${src}` }));
  }
  /* the same sentence as the text report: why busbw was not compared */
  if (typeof r.bandwidth_judged === 'boolean') {
    const dd = el('dd', { id: 'a-bw-judged', 'data-judged': String(r.bandwidth_judged) },
      T(r.bandwidth_judged ? 'bw_judged_yes' : 'bw_judged_no'));
    if (!r.bandwidth_judged && r.bandwidth_not_judged_reason) dd.append(': ', el('span', { class: 'reason', text: pageFields(gen(r.bandwidth_not_judged_reason, state.lang)) }));
    facts.append(el('dt', { text: T('fact_bw_judged') }), dd);
  }
  const ul = $('#a-findings');
  ul.replaceChildren();
  for (const f of r.findings || []) {
    const where = f.file ? `${f.file}${isUnknown(f.line) ? '' : ':' + f.line}` : T('unknown');
    ul.append(el('li', { class: 'finding ' + (f.severity || ''), 'data-code': f.code || '' },
      el('span', { class: 'sev', text: f.severity ? val(f.severity, state.lang) : T('unknown') }), ' ',
      el('code', { class: 'code', text: f.code || T('unknown') }), ' ',
      el('span', { class: 'msg', text: pageFields(gen(f.message || '', state.lang)) }), ' ',
      el('code', { class: 'where', text: where }),
      f.action ? el('div', { class: 'action', text: `${T('a_action')}: ${pageFields(gen(f.action, state.lang))}` }) : null));
  }
  if (!(r.findings || []).length) ul.append(el('li', { text: T('no_findings') }));
  $('#audit-verdict').hidden = false;
}

/* --- language --- */
function applyLanguage() {
  document.documentElement.lang = state.lang;
  $('#lang').value = state.lang;
  for (const n of document.querySelectorAll('[data-i18n]')) n.textContent = T(n.getAttribute('data-i18n'));
  /* the filters' values (the option's value, sent to the API, unchanged) */
  for (const n of document.querySelectorAll('option[data-val]')) n.textContent = val(n.value, state.lang, n.getAttribute('data-val'));
  document.title = T('page_title');
  renderTable();
  if (state.detailData) renderDetail(state.detailData);
  if (state.plan) renderPlan();
  if (state.audit) renderAudit();
  renderPlanFilters();
  if (state.fabrics) renderFabrics();
}

async function init() {
  /* The language: ?lang=en|es (a link in Spanish can be shared), else the
   * last one chosen here, else the browser's. */
  const saved = localStorage.getItem('clusterfit-lang');
  const asked = new URLSearchParams(location.search).get('lang');
  state.lang = asked && I18N[asked] ? asked : saved && I18N[saved] ? saved
    : (navigator.language || 'en').toLowerCase().startsWith('es') ? 'es' : 'en';
  await loadVocab();
  readUrl();
  applyLanguage();
  $('#lang').addEventListener('change', () => {
    state.lang = $('#lang').value;
    localStorage.setItem('clusterfit-lang', state.lang);
    writeUrl();
    applyLanguage();
  });
  $('#filters').addEventListener('submit', ev => { ev.preventDefault(); writeUrl(); loadOfferings(); });
  $('#f-reset').addEventListener('click', () => { history.replaceState(null, '', location.pathname); readUrl(); writeUrl(); loadOfferings(); });
  for (const s of document.querySelectorAll('#filters select, #filters input[type=checkbox]'))
    s.addEventListener('change', () => { writeUrl(); loadOfferings(); renderPlanFilters(); });
  $('#filters').addEventListener('input', renderPlanFilters);
  $('#p-use-filters').addEventListener('change', renderPlanFilters);
  $('#detail-close').addEventListener('click', closeDetail);
  document.addEventListener('keydown', ev => { if (ev.key === 'Escape' && !$('#detail').hidden) closeDetail(); });
  $('#p-workload').addEventListener('change', () => { $('#p-custom-field').hidden = $('#p-workload').value !== '__custom'; servePlanFields(); });
  $('#p-custom').addEventListener('input', servePlanFields);
  $('#plan-form').addEventListener('submit', runPlan);
  $('#audit-form').addEventListener('submit', runAudit);
  initFabrics();
  loadAuditOfferings();
  await loadOfferings();
  if (state.detail) showDetail(state.detail);
}

document.addEventListener('DOMContentLoaded', init);
