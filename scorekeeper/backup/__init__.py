"""Backup: keeping the games file and what is in it. A table's archive (``table_archive``,
read with ``json_reader``), continuous replicas and online copies (``replicate``), and the
file's upkeep: purging what was deleted (``purge``) and what takes room (``sizes``).

Layer: imports ``store``, ``live``, ``rules``, ``i18n`` and the shared ``clock`` and
``codes``.
"""
