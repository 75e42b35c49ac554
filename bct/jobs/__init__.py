"""Long jobs built from the layers below: evaluation, train-then-evaluate, epoch tuning, playing variants."""
