/* step_constants.h — every constant of the training-step and memory model
 * (DESIGN.md §4.3) in one table, each with its source or the way it was
 * fitted. docs/model-step.md lists the same table. Global constants only:
 * nothing here is per GPU model, per workload or per validation row (the
 * GPU's peak FLOP/s and HBM bandwidth come from data/gpus.csv). The collective
 * model's constants are in lib/model_constants.h. */
#ifndef CLUSTERFIT_STEP_CONSTANTS_H
#define CLUSTERFIT_STEP_CONSTANTS_H

/* --- GEMM efficiency (lib/step.c gemm_eff) ---------------------------------
 * A GEMM of per-GPU shape M x K x N runs at
 *     1/eff = 1/CF_GEMM_EFF_MAX + CF_GEMM_TILE_K * (peak/HBM) * (1/M + 1/N + 1/K)
 * i.e. the additive roofline of its math (at the best cuBLAS efficiency) and
 * of the bytes of its operands and result, 2 B per element each, which cost
 * (1/M + 1/N + 1/K) bytes per FLOP (Williams, Waterman & Patterson 2009;
 * NVIDIA Matrix Multiplication Background user guide: arithmetic intensity
 * MNK/(MK+KN+MN)). So smaller per-GPU matrices (high TP, short sequences,
 * micro-batch 1) run less efficiently, and a GPU with more FLOP/s per byte
 * of HBM (H100: 295 FLOP/B vs A100: 153) needs larger ones. CF_GEMM_TILE_K
 * scales the traffic term (re-read tiles > 1, L2 reuse < 1). Fitted once,
 * globally, on the training validation rows (docs/model-step.md: the sweep
 * over EFF_MAX 0.8-0.9, TILE_K 1-2, ATTN_EFF 0.5-0.6 keeps the median APE
 * at 8-12 %); 0.80 is also what large bf16 GEMMs reach on A100/H100 in
 * NVIDIA's cuBLAS figures (0.75-0.85 of dense peak). */
#define CF_GEMM_EFF_MAX 0.80
#define CF_GEMM_TILE_K 1.0

/* Flash attention (scores and values, 4*b*s^2*h forward) runs at this
 * fraction of dense peak, forward and backward together: FlashAttention-2
 * reaches 50-73% of A100 peak forward and ~45-63% with backward (Dao 2023,
 * arXiv:2307.08691 Fig. 4-6); we take the low middle since the backward
 * pass (2/3 of the work) is the slower one. FP8 training keeps attention in
 * bf16 (torchao Float8 converts nn.Linear only). */
#define CF_ATTN_EFF 0.50

/* --- memory-bound element-wise work (layer norms, residual adds, dropout,
 * bias + activation, rotary embedding, softmax/cross-entropy) -------------
 * Bytes moved through HBM per token per layer, forward, in units of h (the
 * hidden size) and of f (the FFN hidden size), 2-byte values: two norms
 * (read + write 2h each = 8h), two residual adds (3h each = 6h), two
 * dropouts or the attention input/output casts (~3h each = 6h), QKV
 * bias/rotary (~4h): ~24h; the FFN activation reads and writes f-sized
 * tensors: GELU read f write f (2f), SwiGLU read 2f write f (3f). Counted
 * from the kernels of Megatron-LM's transformer layer (Korthikanti et al.
 * 2022, arXiv:2205.05198 §4 lists the same tensors for the activation
 * memory). Backward moves twice the forward bytes. HBM reaches this
 * fraction of its rated bandwidth in streaming kernels (STREAM-like copies
 * reach ~0.8-0.9 on A100/H100: NVIDIA A100 and H100 whitepapers, BabelStream
 * results). */
#define CF_ELEM_BYTES_PER_H 24.0
#define CF_ELEM_BYTES_PER_F_GELU 2.0
#define CF_ELEM_BYTES_PER_F_SWIGLU 3.0
#define CF_HBM_EFF 0.80

/* Cross-entropy over the vocabulary: bytes per token per vocabulary entry
 * (fp32 logits written, read by softmax and by its backward: ~3 x 4 B). */
#define CF_XENT_BYTES_PER_V 12.0

/* Fixed time per layer per micro-batch forward (kernel launches and the
 * CPU side of ~20 kernels of ~5-10 us each without CUDA graphs; PyTorch
 * launch overhead, NVIDIA Nsight studies of Megatron layers). Backward
 * counts it twice. */
#define CF_LAYER_OVERHEAD_S 150e-6

/* --- overlap ----------------------------------------------------------------
 * NCCL kernels occupy SMs (one CTA per channel, 16-32 channels on H100) and
 * HBM bandwidth while they run beside GEMMs, so overlapped communication is
 * never free: the compute it hides behind slows by this fraction of the
 * communication time (Rashidi et al. 2021 "Enabling compute-communication
 * overlap in distributed deep learning training platforms", ISCA; Jangda et
 * al. 2022 CoCoNet report 10-30% slowdowns of overlapped GEMMs). */
#define CF_OVERLAP_SM_STEAL 0.15

/* --- optimizer step ---------------------------------------------------------
 * Adam update bytes per parameter it updates: read and write fp32 master
 * weight, m and v (24 B), read the gradient (4 B), write the 2-byte weight
 * (2 B) — memory-bound (Megatron's fused Adam; apex FusedAdam). */
#define CF_ADAM_BYTES_PER_PARAM 30.0

/* --- memory -----------------------------------------------------------------
 * Bytes per parameter: 2-byte weights, gradients 2 B (or 4 B when the
 * workload reduces fp32 gradients), Adam 12 B (fp32 master copy, m, v)
 * (Rajbhandari et al. 2020, ZeRO, arXiv:1910.02054 §3.1: 2 + 2 + 12 = 16 B). */
#define CF_BYTES_WEIGHT 2.0
#define CF_BYTES_GRAD 2.0
#define CF_BYTES_GRAD_FP32 4.0
#define CF_BYTES_ADAM 12.0
/* SGD with momentum: fp32 master copy and momentum (same source). */
#define CF_BYTES_SGD 8.0

/* Runtime reserve per GPU: CUDA context (~0.5-1 GiB with cuBLAS/cuDNN
 * workspaces), NCCL buffers (NCCL_BUFFSIZE 4 MiB x channels x peers,
 * ~0.5-1 GiB at scale), and the caching allocator's fragmentation
 * (PyTorch CUDA memory-management notes). GiB. */
#define CF_RUNTIME_RESERVE_GIB 3.0

/* Usable memory per GPU: data/gpus.csv gives the vendor's figure in GB
 * (DESIGN §2: gpu_memory_gb), read as 10^9 bytes, so an "80 GB" GPU offers
 * 80e9 B = 74.5 GiB. nvidia-smi shows a little more (81559 MiB = 79.6 GiB on
 * H100 80GB): the difference is headroom beside CF_RUNTIME_RESERVE_GIB, and
 * `fit`, `plan` and `predict step` all compare against this one figure. */
#define CF_GPU_GB_BYTES 1e9

/* --- data-parallel, stencil, embarrassingly-parallel kinds ------------------
 * Small per-GPU batches of a convolutional network run below peak: the GPU
 * reaches half its large-batch throughput at this many samples per GPU
 * (ResNet-50 throughput vs batch on V100/A100 flattens above ~64-128 per
 * GPU: NVIDIA Deep Learning Examples, ResNet-50 v1.5 performance tables). */
#define CF_DP_HALF_BATCH 16.0
/* Fraction of dense peak a well-tuned convolutional network reaches at large
 * batch in mixed precision (ResNet-50 v1.5 on A100: ~2,700 img/s x ~24.6
 * GFLOP per image training ≈ 66 TFLOP/s = 0.21 of 312: MLPerf Training v1.0
 * NVIDIA results, DALI-fed). */
#define CF_DP_EFF_MAX 0.22
/* DDP reduces gradients in buckets (25 MiB default) while backward runs;
 * the last bucket (~this fraction of all gradients) cannot overlap
 * (PyTorch DDP paper, Li et al. 2020, VLDB, §3.2.3). */
#define CF_DDP_LAST_BUCKET_FRAC 0.05

/* Stencil codes run in fp32/fp64 on the SIMT cores, not the tensor cores:
 * their FLOP/s peak is ~1/16 of the dense bf16 tensor peak (A100 19.5 vs
 * 312 TFLOP/s fp32; H100 SXM 67 vs 989: NVIDIA A100 and H100 datasheets).
 * Stencils are memory-bound in practice; this bounds the compute side. */
#define CF_FP32_FRAC_OF_BF16 (1.0 / 16.0)

#endif
