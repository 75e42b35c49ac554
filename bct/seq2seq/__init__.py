"""The T5 model: building and loading it, its tokenizer, decoding, the examples a run trains on, training."""
