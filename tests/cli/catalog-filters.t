# Every filter of `list` (DESIGN §6) on the small test catalog: the exact
# matching ids (by hand from tests/data/catalog-small.csv), and on the whole
# catalog (shipped rows too) every row returned satisfies the filter.
. tests/cli/catalog-lib.sh
import_small
expect_ids -- testa-a100-ib-eur testa-h100-ib testb-h100-efa testb-h200-roce testd-h100-pcie-single testd-mi300x-roce testc-h100-unknown testc-l40s-tcp
expect_ids --network ib --gdr yes -- testa-a100-ib-eur testa-h100-ib
expect_json_true 'length > 0 and all(.[]; .network == "ib" and .gpudirect_rdma == "yes")'
expect_ids --network infiniband -- testa-a100-ib-eur testa-h100-ib testc-h100-unknown
expect_json_true 'all(.[]; .network == "ib")'
expect_ids --network roce -- testb-h200-roce testd-mi300x-roce
expect_ids --network efa -- testb-h100-efa
expect_ids --network tcp -- testc-l40s-tcp
expect_ids --network none -- testd-h100-pcie-single
expect_ids --gdr no -- testb-h200-roce testd-h100-pcie-single testc-l40s-tcp
expect_json_true 'all(.[]; .gpudirect_rdma == "no")'
expect_ids --rdma no -- testd-h100-pcie-single testc-l40s-tcp
expect_json_true 'all(.[]; .rdma == "no")'
expect_ids --rdma yes -- testa-a100-ib-eur testa-h100-ib testb-h100-efa testb-h200-roce testd-mi300x-roce testc-h100-unknown
expect_ids --multinode yes -- testa-a100-ib-eur testa-h100-ib testb-h100-efa testb-h200-roce
expect_json_true 'length > 4 and all(.[]; .multinode == "yes")'
expect_ids --multinode no -- testd-h100-pcie-single testc-l40s-tcp
expect_ids --gpu h100-sxm -- testa-h100-ib testb-h100-efa testc-h100-unknown
expect_json_true 'all(.[]; .gpu == "H100-SXM")'
expect_ids --min-gbps 3200 -- testa-h100-ib testb-h100-efa testb-h200-roce testd-mi300x-roce
expect_json_true 'all(.[]; .network_gbps_per_node >= 3200)'
expect_ids --min-gbps 1000 -- testa-a100-ib-eur testa-h100-ib testb-h100-efa testb-h200-roce testd-mi300x-roce
expect_ids --orchestration slurm -- testa-a100-ib-eur testa-h100-ib testd-mi300x-roce
expect_ids --orchestration slurm,kubernetes -- testa-h100-ib
expect_json_true 'all(.[]; (.orchestration | index("slurm")) and (.orchestration | index("kubernetes")))'
expect_ids --provisioning spot -- testb-h200-roce
expect_ids --provisioning on-demand -- testa-a100-ib-eur testa-h100-ib testb-h200-roce testd-h100-pcie-single testc-l40s-tcp
expect_ids --storage yes -- testa-a100-ib-eur testa-h100-ib testb-h100-efa testb-h200-roce testd-mi300x-roce
expect_json_true 'all(.[]; .shared_storage != null and (.shared_storage - ["none"] | length > 0))'
expect_ids --max-price 2.5 -- testa-h100-ib testd-h100-pcie-single testc-l40s-tcp
expect_json_true 'all(.[]; .currency == "USD" and .price_on_demand_gpu_hr <= 2.5)'
expect_ids --max-price 2 --currency EUR -- testa-a100-ib-eur
expect_ids --currency eur -- testa-a100-ib-eur testd-mi300x-roce
expect_json_true 'all(.[]; .currency == "EUR")'
expect_ids --provider testbeta -- testb-h100-efa testb-h200-roce
expect_json 'length' 2
expect_ids --multinode yes --network ib --min-gbps 2000 --orchestration slurm -- testa-h100-ib
