"""Writes the 2,000-unit project of precommit_large_test.sh into DIR."""
import os
import sys

HLO = """HloModule m, replica_count=4

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %ar = f32[8]{0} all-reduce(%p), replica_groups={{0,1},{2,3}}, to_apply=%add
}
"""

CONFIG = ('{"tensor_parallel_size": 2, "data_parallel_size": 2, '
          '"additional_config": {"override_neuron_config": '
          '{"sequence_paralel_enabled": true}}}\n')


def main(root):
    os.makedirs(root)
    with open(os.path.join(root, "neuron_config.json"), "w") as f:
        f.write(CONFIG)
    for i in range(2000):
        unit = os.path.join(root, "unit_%04d" % i)
        os.makedirs(unit)
        groups = "[[0,2],[1,3]]" if i % 500 == 7 else "[[0,1],[2,3]]"
        files = (("model.hlo", HLO),
                 ("def.json", '{"CCInfo": {"replica_groups": [%s]}}\n' % groups),
                 ("settings.json", '{"editor": 1}\n'),
                 ("meta.json", "{}\n"))
        for name, text in files:
            with open(os.path.join(unit, name), "w") as f:
                f.write(text)


if __name__ == "__main__":
    main(sys.argv[1])
