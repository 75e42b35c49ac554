"""`python -m bct.show`: look at played episodes step by step, or at generated training examples.

python -m bct.show results                       # every evaluation under results/: 3 episodes each
python -m bct.show results --failed --agent t5   # unsolved episodes first, runs whose name has 't5'
python -m bct.show results/twc-.../test-1a2b3c/results.json --episode 20007
python -m bct.show twc                                    # data/twc/modules/train.jsonl, first 3 examples
python -m bct.show mapreader --no-modules --fold dev -n 5 --seed 10003
python -m bct.show data/sorting/modules/train.jsonl --entities placeholders   # what a scratch model reads
"""

from bct.reports.show import main

if __name__ == "__main__":
    main()
