"""`python -m bct.share CHECKPOINT OUT_DIR [--push REPO_ID]`: a trained agent as a hub-ready folder.

The folder holds the weights, the tokenizer, bct's run record (its settings) and a model card whose
`model-index` carries the scores of every evaluation of these exact weights found under --results
(matched by the weights' fingerprint, not by folder name). `python -m bct.evaluate checkpoint=OUT_DIR`
plays it as the original. `--push` uploads the folder with huggingface_hub; the token is read from
the environment (HF_TOKEN, or the one `hf auth login` stored) and never written anywhere.

python -m bct.share checkpoints/twc-modules-t5-cpu-scratch-ep30-1a2b3c shared/twc-agent
python -m bct.share checkpoints/my-run shared/my-run --push me/bct-twc --results results
"""

from bct.reports.share import main

if __name__ == "__main__":
    main()
