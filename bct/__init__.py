"""bct: behavior-cloned transformers that play text games with symbolic modules."""

__version__ = "0.1.0"
