/* gen-es.js — Spanish for the text the library generates (plan why lines
 * and unranked reasons, audit findings and actions, fabric flags): the API
 * answers in English, and the page renders it in Spanish through these
 * ordered phrase rules. Numbers, layouts (TP8 PP2v2 DP64), collective names
 * (all-reduce), units (Gbit/s, GPU-h) and quoted log text are kept as they
 * are. A phrase missing here stays in English, and the browser test's
 * Spanish check names it (tests/web/browser.mjs, "untranslated"), so a new
 * sentence in the library needs its rule here too. */
'use strict';
/* [English pattern, Spanish replacement]; applied in order, each globally. */
const GEN_ES = [
  /* --- the why line: what binds; E; P and the price --- */
  [/no communication bottleneck: communication and bubble (\S+) of the step/g,
    'sin cuello de botella de comunicación: comunicación y burbuja $1 del paso'],
  [/pipeline bubble \(PP(\d+) interleaved\) takes (\S+) of the step/g, 'la burbuja de tubería (PP$1 intercalado) ocupa $2 del paso'],
  [/pipeline bubble \(PP(\d+)\) takes (\S+) of the step/g, 'la burbuja de tubería (PP$1) ocupa $2 del paso'],
  [/\bTP ([\w/-]+) within the node \(([^)]*)\) exposes (\S+) of the step/g,
    'el $1 de TP dentro del nodo ($2) expone $3 del paso'],
  [/\bDP ([\w/-]+) \(ZeRO-(\d)\) within the node \(([^)]*)\) exposes (\S+) of the step/g,
    'el $1 de DP (ZeRO-$2) dentro del nodo ($3) expone $4 del paso'],
  [/\bDP ([\w/-]+) \(ZeRO-(\d)\) over ([^;]*?) exposes (\S+) of the step/g,
    'el $1 de DP (ZeRO-$2) sobre $3 expone $4 del paso'],
  [/\bDP ([\w/-]+) within the node \(([^)]*)\) exposes (\S+) of the step/g, 'el $1 de DP dentro del nodo ($2) expone $3 del paso'],
  [/\bDP ([\w/-]+) over ([^;]*?) exposes (\S+) of the step/g, 'el $1 de DP sobre $2 expone $3 del paso'],
  [/\bPP send\/recv within the node \(([^)]*)\) exposes (\S+) of the step/g, 'el send/recv de PP dentro del nodo ($1) expone $2 del paso'],
  [/\bPP send\/recv over ([^;]*?) exposes (\S+) of the step/g, 'el send/recv de PP sobre $1 expone $2 del paso'],
  [/\bCP K\/V exchange within the node \(([^)]*)\) exposes (\S+) of the step/g, 'el intercambio K/V de CP dentro del nodo ($1) expone $2 del paso'],
  [/\bCP K\/V exchange over ([^;]*?) exposes (\S+) of the step/g, 'el intercambio K/V de CP sobre $1 expone $2 del paso'],
  [/\bE (\S+) on the smallest cluster that fits \((\d+) nodes?\)/g, 'E $1 en el clúster más pequeño en que cabe ($2 nodo(s))'],
  [/\bE (\S+) at (\d+) nodes vs (\d+)/g, 'E $1 con $2 nodos frente a $3'],
  [/, above 1 because memory binds on (\d+) nodes?: the fastest layout that fits there is /g,
    ', por encima de 1 porque la memoria limita en $1 nodo(s): el reparto más rápido que cabe allí es '],
  [/, while (\d+) nodes have room for /g, ', mientras que $1 nodos dejan sitio para '],
  [/, above 1: on (\d+) nodes? the fastest layout is /g, ', por encima de 1: con $1 nodo(s) el reparto más rápido es '],
  [/ with ZeRO-(\d) and full recompute/g, ' con ZeRO-$1 y recomputación completa'],
  [/ with ZeRO-(\d) and selective recompute/g, ' con ZeRO-$1 y recomputación selectiva'],
  [/ with ZeRO-(\d) and no recompute/g, ' con ZeRO-$1 y sin recomputación'],
  [/ with full recompute/g, ' con recomputación completa'],
  [/ with selective recompute/g, ' con recomputación selectiva'],
  [/ with no recompute/g, ' sin recomputación'],
  [/\bP (\S+): (\S+) (\S+)\/GPU-h sticker is (\S+) effective/g, 'P $1: $2 $3/GPU-h de tarifa son $4 efectivos'],
  [/ within the node \(([^)]*)\)/g, ' dentro del nodo ($1)'],
  /* --- unranked reasons --- */
  [/^price unknown$/g, 'precio desconocido'],
  [/^currency unknown$/g, 'moneda desconocida'],
  [/^currency (\w+)$/g, 'moneda $1'],
  [/^gpu unknown$/g, 'GPU desconocida'],
  [/^gpu (\S+) not in the hardware table$/g, 'GPU $1 fuera de la tabla de hardware'],
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
  [/; one node only: the network between nodes is not stated \(network unknown\)/g,
    '; solo un nodo: la red entre nodos no consta (red desconocida)'],
  [/deadline (\S+) h not met on one node \(the network between nodes is not stated: network unknown\)/g,
    'plazo de $1 h no cumplido con un nodo (la red entre nodos no consta: red desconocida)'],
  [/deadline (\S+) h not met on up to (\d+) nodes/g, 'plazo de $1 h no cumplido con hasta $2 nodos'],
  [/ \(with the (\S+) % margin\)/g, ' (con el margen del $1 %)'],
  [/budget (\S+) (\w+) exceeded on every node count/g, 'presupuesto de $1 $2 superado con cualquier número de nodos'],
  [/^fabric: /g, 'red: '],
];

/* Vocabulary values the API returns (DESIGN §2) in Spanish; the others
 * (slurm, kubernetes, ib, lustre...) are names and stay as they are. */
const VALUES_ES = {
  on: 'activado', off: 'desactivado', partial: 'parcial', na: 'no aplica',
  'on-demand': 'bajo demanda', spot: 'spot', reserved: 'reservado', waitlist: 'lista de espera', flex: 'flexible',
  vm: 'VM', managed: 'gestionado', object: 'objetos', none: 'ninguno',
  ok: 'correcto', warning: 'aviso', failed: 'fallido', invalid: 'no válido', info: 'información', error: 'error',
  shipped: 'incluida', user: 'del usuario',
};

/* One vocabulary value v in the page's language. */
function val(v, lang) {
  if (lang !== 'es' || typeof v !== 'string') return v;
  return Object.prototype.hasOwnProperty.call(VALUES_ES, v) ? VALUES_ES[v] : v;
}

/* The generated English text s in the page's language: as it is in English,
 * through GEN_ES in Spanish. */
function gen(s, lang) {
  if (!s || lang !== 'es') return s;
  let out = String(s);
  for (const [re, to] of GEN_ES) out = out.replace(re, to);
  return out;
}
