# clusterfit recipe: an sbatch script (bash -n) or an MPIJob manifest (parsed
# with PyYAML when python3 has it, else a structural check) for an
# InfiniBand, an EFA, a TCPXO and a RoCE offering of data/offerings.csv.
have_yaml=0; python3 -c 'import yaml' 2> /dev/null && have_yaml=1
yaml_check() {  # FILE NODES GPUS
    if [ "$have_yaml" = 1 ]; then
        python3 - "$1" "$2" "$3" > "$T/y" 2>&1 <<'PY' || fail "manifest does not parse: $(cat "$T/y")"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["apiVersion"] == "kubeflow.org/v2beta1" and d["kind"] == "MPIJob", d
s = d["spec"]
assert s["slotsPerWorker"] == int(sys.argv[3])
assert s["mpiReplicaSpecs"]["Worker"]["replicas"] == int(sys.argv[2])
w = s["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
assert w["resources"]["limits"]["nvidia.com/gpu"] == int(sys.argv[3])
open(sys.argv[1] + ".sh", "w").write(s["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]["containers"][0]["args"][0])
PY
        bash -n "$1.sh" || fail "the launcher's script does not parse"
    else
        grep -q '^apiVersion: kubeflow.org/v2beta1$' "$1" && grep -q '^kind: MPIJob$' "$1" || fail "not an MPIJob"
        ! grep -q "$(printf '\t')" "$1" || fail "tab in YAML"
    fi
}
# InfiniBand: all rails from sysfs, 2 nodes x 8 GPUs.
cf recipe azure-nd96isr-h100-v5 --nodes 2 --scheduler slurm; expect_rc 0
printf '%s\n' "$OUT" > "$T/ib.sh"; bash -n "$T/ib.sh" || fail "sbatch script does not parse"
expect_out "#SBATCH --nodes=2"
expect_out "#SBATCH --ntasks-per-node=8"
expect_out 'export NCCL_IB_HCA="${NCCL_IB_HCA:-$(cf_rails InfiniBand)}"'
expect_out "clusterfit probe --mpi --offering azure-nd96isr-h100-v5"
expect_out "srun --mpi=pmix --ntasks=16 --ntasks-per-node=8"
expect_out 'clusterfit audit --offering azure-nd96isr-h100-v5 "$OUT/nccl-tests.log" "$OUT/probe.json"'
# The rails function lists the InfiniBand devices of a saved tree.
rails=$(sed -n '/^cf_rails()/,/; }$/p' "$T/ib.sh" | sed "s|/sys/class/infiniband|$ROOT/tests/data/probe/h100-ib/sys/class/infiniband|" > "$T/fn.sh"; . "$T/fn.sh"; cf_rails InfiniBand)
[ "$rails" = "mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7" ] || fail "rails: '$rails'"
cf recipe azure-nd96isr-h100-v5 --nodes 4 --scheduler kubernetes; expect_rc 0
printf '%s\n' "$OUT" > "$T/ib.yaml"; yaml_check "$T/ib.yaml" 4 8
expect_out "rdma/rdma_shared_device_a: 1"
# EFA: provider, device RDMA, 32 EFA devices per worker.
cf recipe aws-p5-48xlarge --nodes 2; expect_rc 0
printf '%s\n' "$OUT" > "$T/efa.sh"; bash -n "$T/efa.sh" || fail "sbatch script does not parse"
expect_out 'export FI_PROVIDER="${FI_PROVIDER:-efa}"'
expect_out 'export FI_EFA_USE_DEVICE_RDMA="${FI_EFA_USE_DEVICE_RDMA:-1}"'
expect_no_out NCCL_IB_HCA
cf recipe aws-p5-48xlarge --nodes 16 --scheduler kubernetes; expect_rc 0
printf '%s\n' "$OUT" > "$T/efa.yaml"; yaml_check "$T/efa.yaml" 16 8
expect_out "vpc.amazonaws.com/efa: 32"
expect_out "$MPIRUN -np 128 --npernode 8"
# GPUDirect-TCPXO: Google's profile, the enforced values.
cf recipe gcp-a3-megagpu-8g --nodes 2; expect_rc 0
printf '%s\n' "$OUT" > "$T/tcpxo.sh"; bash -n "$T/tcpxo.sh" || fail "sbatch script does not parse"
expect_out '. "$NCCL_LIB_DIR/nccl-env-profile.sh"'
expect_out 'export NCCL_PROTO="${NCCL_PROTO:-Simple}"'
expect_out 'export NCCL_MIN_NCHANNELS="${NCCL_MIN_NCHANNELS:-4}"'
cf recipe gcp-a3-megagpu-8g --nodes 2 --scheduler kubernetes; expect_rc 0
printf '%s\n' "$OUT" > "$T/tcpxo.yaml"; yaml_check "$T/tcpxo.yaml" 2 8
# RoCE: GID index 3, Ethernet rails.
cf recipe oci-bm-gpu-h100-8 --nodes 2 --format json; expect_rc 0
expect_json .network roce
expect_json '.script | test("NCCL_IB_GID_INDEX:-3")' true
expect_json '.script | test("cf_rails Ethernet")' true
# Refusals: exit 2.
cf recipe azure-nd96isr-h100-v5 --nodes 1; expect_rc 2; expect_err "--nodes"
cf recipe azure-nd96isr-h100-v5; expect_rc 2; expect_err "--nodes is required"
cf recipe --nodes 2; expect_rc 2; expect_err "an OFFERING id is required"
cf recipe nope --nodes 2; expect_rc 2; expect_err "no offering 'nope'"
cf recipe azure-nd96isr-h100-v5 --nodes 2 --scheduler pbs; expect_rc 2; expect_err 'expected one of slurm, kubernetes, skypilot, dstack, got "pbs"'
cf recipe vastai-h100-sxm --nodes 2; expect_rc 2; expect_err "gpus_per_node is unknown"
# GPUDirect-TCPX (A3 High): its variables, and a launcher script that parses.
cf recipe gcp-a3-highgpu-8g --nodes 2 --scheduler kubernetes; expect_rc 0
printf '%s\n' "$OUT" > "$T/tcpx.yaml"; yaml_check "$T/tcpx.yaml" 2 8
expect_out 'NCCL_GPUDIRECTTCPX_SOCKET_IFNAME="${NCCL_GPUDIRECTTCPX_SOCKET_IFNAME:-eth1,eth2,eth3,eth4}"'
# SkyPilot (issue 23): the provider's cloud and the instance type the map
# gives; Kubernetes where SkyPilot has no cloud for the provider; refused
# where it has neither. Parsed as YAML when python3 has PyYAML.
sky_check() {  # FILE KEY VALUE: resources.KEY is VALUE
    [ "$have_yaml" = 1 ] || { grep -q "^  $2: $3" "$1" || fail "resources.$2 is not $3"; return; }
    python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); assert d["num_nodes"] == 4, d
assert str(d["resources"][sys.argv[2]]) == sys.argv[3], d["resources"]' "$1" "$2" "$3" || fail "resources.$2 != $3"
}
cf recipe aws-p5-48xlarge --nodes 4 --scheduler skypilot; expect_rc 0
printf '%s\n' "$OUT" > "$T/sky.yaml"
sky_check "$T/sky.yaml" infra aws; sky_check "$T/sky.yaml" instance_type p5.48xlarge
sky_check "$T/sky.yaml" image_id docker:clusterfit-verify:latest; sky_check "$T/sky.yaml" network_tier best
expect_out 'export FI_EFA_USE_DEVICE_RDMA="${FI_EFA_USE_DEVICE_RDMA:-1}"'
cf recipe lambda-1cc-h100 --nodes 4 --scheduler skypilot --image reg.example/cf-verify:1; expect_rc 0
printf '%s\n' "$OUT" > "$T/sky2.yaml"
sky_check "$T/sky2.yaml" infra lambda; sky_check "$T/sky2.yaml" accelerators H100:8
sky_check "$T/sky2.yaml" image_id docker:reg.example/cf-verify:1
cf recipe coreweave-hgx-h100 --nodes 4 --scheduler skypilot; expect_rc 0
printf '%s\n' "$OUT" > "$T/sky3.yaml"; sky_check "$T/sky3.yaml" infra k8s
cf recipe tensorwave-mi300x-cluster --nodes 2 --scheduler skypilot; expect_rc 2
expect_err "SkyPilot has no cloud for TensorWave"; expect_err "--scheduler slurm or dstack"
# dstack: the provider's backend, else an SSH fleet; the GPU with its memory.
cf recipe azure-nd96amsr-a100-v4 --nodes 2 --scheduler dstack --format json; expect_rc 0
expect_json .scheduler dstack; expect_json .image clusterfit-verify:latest
expect_json '.script | test("\nbackends: \\[azure\\]\n")' true
expect_json '.script | test("\n  gpu: A100:80GB:8\n")' true
expect_json '.script | test("DSTACK_MPI_HOSTFILE")' true
cf recipe tensorwave-mi300x-cluster --nodes 2 --scheduler dstack; expect_rc 0
expect_out "dstack has no backend for TensorWave: create an SSH fleet"
# An image name that is not an image reference is refused before any output.
cf recipe aws-p5-48xlarge --nodes 2 --scheduler dstack --image 'x; rm -rf /'; expect_rc 2
expect_err "--image"; [ ! -s "$T/out" ] || fail "output despite the refusal"
