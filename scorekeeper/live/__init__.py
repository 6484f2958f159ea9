"""Live: word that something changed, for the pages waiting on it, within a process
(``in_process``) and between the processes serving one file (``across_processes``); and
long work that takes turns with those pages (``turns``).

Layer: the standard library only; imported by ``store`` (each commit), ``web`` (the waiting
pages) and any long piece of work.
"""
