"""Seq2seq data: the Markov prompt, entity placeholders, representations, generated data sets and generating them."""
