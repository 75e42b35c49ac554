"""Game families (worlds): their games, environments, gold paths and the sentences their modules read.

The interface a family implements is `bct/worlds/base.py`; each family is one folder (`twx/`)."""
