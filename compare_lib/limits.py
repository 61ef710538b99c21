"""Every size limit in one table, read by the library and the dashboard alike.

The library refuses work beyond its limits with a message that states the limit (a notebook can still
compute what the machine allows below them). The dashboard is public and shared, so it offers less:
its limits are the ``APP_`` names, always at most the library's, and each page states them where a user
meets them. Change a value here and both layers follow.
"""

from __future__ import annotations

# -- input ---------------------------------------------------------------------------------------------
#: Names of data sets and classifiers longer than this are refused (a wrong delimiter, or a crafted file).
MAX_NAME_LENGTH = 1_000

#: Untrusted input (issue 27). Every count read from a file is checked against these before anything is
#: allocated or expanded.
#: A sheet's used range (rows x columns, from the cell references in the file) and its columns.
MAX_SHEET_CELLS = 20_000_000
MAX_SHEET_COLUMNS = 20_000
#: Columns of a table in any text format (a LaTeX \multicolumn span, a Markdown or PDF-text row).
MAX_TABLE_COLUMNS = 20_000
#: Characters a workbook's cells may add by reuse (a shared string referenced again, a repeated cell's text).
MAX_SHEET_EXPANDED_CHARACTERS = 100_000_000
#: Characters a workbook's repeat counts may add in all (OpenDocument's <text:s text:c="N"/>).
MAX_REPEATED_CHARACTERS = 1_000_000
#: Braces nested inside one LaTeX cell.
MAX_LATEX_NESTING = 100
#: Lines longer than this are not matched by the format detection's patterns (they are still read).
MAX_SNIFF_LINE = 10_000
#: Input read in a child process (workbooks, whose reader is native code): memory above the child's
#: size at start (MB) and wall-clock seconds.
READ_MEMORY_MB = 1536
READ_SECONDS = 60
#: Largest file (or file object) the library reads, in bytes.
MAX_INPUT_BYTES = 1 << 30
#: Seeds of random generators: what every numpy generator accepts (RandomState needs < 2**32).
MAX_SEED = 2**32 - 1

# -- item-level results (issue 30) ---------------------------------------------------------------------
#: Rows (model x task x item outcomes) of one item-level read, and files of one folder or list.
MAX_ITEM_ROWS = 50_000_000
MAX_ITEM_FILES = 10_000
#: Replicates of one paired bootstrap or sign-flip permutation test.
MAX_ITEM_REPS = 1_000_000
#: Cells (replicates x items) held at once while resampling; larger runs go in chunks of this size.
ITEM_RESAMPLE_CHUNK = 20_000_000
#: Replicates x items x pairs of one call's bootstrap or permutation tests (about 10^8 a second here).
MAX_ITEM_RESAMPLE_WORK = 3_000_000_000

# -- pairwise tests ------------------------------------------------------------------------------------
#: Exact Wilcoxon null distributions are used up to this many non-zero differences (then the normal one).
EXACT_WILCOXON_MAX_N = 50
#: Work budget (cells) of the exact Wilcoxon distributions of tied differences in one call.
EXACT_WILCOXON_WORK = 400_000_000
#: Work budget (cells) of the exact rank-sum difference (Eisinga et al. 2017) in one call.
EXACT_RANK_SUM_CELLS = 800_000_000

# -- p-value adjustment --------------------------------------------------------------------------------
#: Rom's APVs invert the critical values level by level (vectorized bisection): O(m^2) per step.
MAX_ROM_HYPOTHESES = 100
#: Shaffer's S(k) needs C(k, 2)-bit sets for every k' <= k: about k^4/512 machine-word operations.
MAX_SHAFFER_K = 1000
#: Exhaustive sets are enumerated (set partitions) up to this k; beyond, they are built recursively.
MAX_ENUMERATED_K = 12
#: Bergmann-Hommel's exhaustive sets grow like the Bell numbers: seconds at k = 14, minutes beyond 15.
MAX_BERGMANN_HOMMEL_K = 15
#: Bell numbers are computed exactly up to this k.
MAX_BELL_K = 2000

# -- pool sensitivity ----------------------------------------------------------------------------------
MAX_SIMULATION_REPS = 100_000
MAX_SIMULATION_N = 2_000
MAX_SIMULATION_ALGORITHMS = 30
#: Pools are enumerated one by one up to this many classifiers (2^(k-2) pools).
MAX_ENUMERATED_POOL_K = 22
#: Holm's procedure inside every pool needs each pool's whole family: enumerated up to this k.
MAX_HOLM_POOL_K = 14
#: Cells of the pool-counting arrays held at once.
MAX_COUNT_CELLS = 40_000_000

# -- replicability and experiments ---------------------------------------------------------------------
MAX_REPLICABILITY_SAMPLES = 50_000
MAX_REPLICABILITY_BIASES = 201
MAX_REPLICABILITY_SAMPLE_CELLS = 20_000_000
MAX_EXPERIMENT_CLASSIFIERS = 20
MAX_EXPERIMENT_SEEDS = 1000
MAX_EXPERIMENT_RUNS = 1000
MAX_EXPERIMENT_FOLDS = 100
MAX_EXPERIMENT_FITS = 200_000

# -- Bayesian analysis and effect sizes ----------------------------------------------------------------
MAX_POSTERIOR_SAMPLES = 1_000_000
#: The signed-rank test costs O(samples x data sets) per pair: one call does at most this many units.
MAX_SIGNED_RANK_WORK = 2_000_000_000
#: The sign test of all pairs draws samples x pairs Dirichlet vectors (about 150 ns each).
MAX_SIGN_POSTHOC_WORK = 200_000_000
MAX_RELEVANCE_DEMO_N = 5_000
MAX_WALSH_WORK = 300_000_000
MAX_EFFECT_PAIRS = 5_000

# -- figures -------------------------------------------------------------------------------------------
#: Matrices (heat maps) of more classifiers than this cannot be read.
MAX_MATRIX_K = 80
#: The forest plot of effect sizes draws at most this many pairs.
MAX_FOREST_PAIRS = 240
#: A CD diagram of more classifiers than this cannot be read.
MAX_CD_K = 150
#: Names longer than this are shortened in figures (the full name stays in the hover).
MAX_NAME_CHARS = 40

# -- the dashboard (public, shared: smaller than the library's) ----------------------------------------
#: Scores (data sets x classifiers) and classifiers of one loaded table.
APP_MAX_CELLS = 1_000_000
APP_MAX_CLASSIFIERS = 500
#: Data sets listed by name in the selection widgets.
APP_MAX_LISTED_DATASETS = 500
#: Bergmann-Hommel is offered up to this many classifiers (its exhaustive sets take seconds to minutes beyond).
APP_MAX_BERGMANN_HOMMEL_K = 14
APP_MAX_MATRIX_K = 60
APP_MAX_CD_K = 100
#: Pools listed one by one up to this many classifiers.
APP_MAX_LISTED_POOL_K = 16
#: Bayesian work budgets of one page run (samples x data sets x pairs).
APP_BAYES_PAIR_WORK = 40_000_000
APP_BAYES_ALL_WORK = 1_000_000_000
APP_BAYES_SIGN_ALL_WORK = 10_000_000
APP_BAYES_MIN_SAMPLES = 1_000
#: A shared link carries the table itself when, compressed, it fits in this many characters.
APP_MAX_LINK_DATA_CHARS = 8000
APP_MAX_LINK_DATA_BYTES = 2_000_000
APP_MAX_LINK_CELLS = 20_000
APP_MAX_DROP_CHARS = 1500
#: Item-level rows (model x task x item) the app reads (issue 30).
APP_MAX_ITEM_ROWS = 2_000_000
#: Bytes a zip of item-level files may unpack to in the app (checked in the zip's directory before unpacking).
APP_MAX_UNZIP_BYTES = 300_000_000
#: A sheet's used range (rows x columns) the app reads.
APP_MAX_SHEET_CELLS = 5_000_000
#: Untrusted input is read in a child process with these limits: memory above the child's start (MB),
#: wall-clock seconds and CPU seconds. A reader that dies or runs over is reported, never waited for.
APP_READ_MEMORY_MB = 1024
APP_READ_SECONDS = 30
APP_READ_CPU_SECONDS = 30
#: Children reading at once (each may use APP_READ_MEMORY_MB); further reads wait for a slot. One (issue 31): a reader
#: uses 100-190 MB while it reads a 10 MB file; 30 uploads of 10 MB within 10 s (bench/uploads.py) peaked at 688 MB
#: with two, at 606-642 MB with one, which read nearly as fast then because the next reader's interpreter started while
#: one read, and now because each reader is forked in milliseconds (compare_lib.io._isolate._ForkServer). Two readers
#: of 1 GB each could also exceed Cloud's smallest app (690 MB) by themselves.
APP_READ_WORKERS = 1
#: A read waits in the server-wide queue for a free child at most this long (issue 31: a class uploading at once;
#: a 10 MB file reads in one to a few seconds, so one child clears 30 waiting files well within it, but on a machine
#: 7 times oversubscribed 25 of 30 got their turn within 180 s with two); the visitor then sees a message asking to
#: try again. The read's own APP_READ_SECONDS start when its child does.
APP_READ_QUEUE_SECONDS = 300
#: glibc's thresholds in the processes that hold a class's tables (the dashboard's server, the reading children;
#: issue 31): a buffer of this many bytes or more is mapped on its own pages and given back when freed, and a heap's
#: free top beyond the second is given back. 1 MB, not more: each page run is a thread, and glibc gives threads their
#: own heaps (16 on 2 cores), whose free tops malloc_trim leaves alone; with 64 MB, 268 MB stayed free in them after
#: a class's 30 uploads of 10 MB (server tree 468-516 MB once the sessions were dropped, 324-334 MB with 1 MB, for
#: the same CPU per page run: 0.059 s against 0.062 s, bench/load.py, 30 sessions).
ALLOCATOR_MMAP_THRESHOLD = 4 << 20
ALLOCATOR_TRIM_THRESHOLD = 1 << 20
#: At most this many glibc heaps for the server's threads (glibc's default: 8 per core), and Arrow's buffers from the
#: system allocator rather than Arrow's mimalloc; both set by dashboard/server.py through dashboard/allocator.py
#: before it imports pandas (issue 31). Every page run is a new thread: each could take a heap of its own, and
#: mimalloc kept what ended threads had allocated. Measured with 10 sessions holding a 10 MB wide table each
#: (bench/uploads.py --kinds wide --stay), the server tree once they were loaded: 417-420 MB with both defaults,
#: 404-407 MB with the system allocator for Arrow, 395-396 MB with both set in the environment, 402-406 MB with both
#: set by server.py (idle 270-279 MB before); set on the first page run instead, 413-419 MB. The reading children
#: already run this way (compare_lib.io._isolate).
ALLOCATOR_ARENA_MAX = 2

#: Seconds a thread of the dashboard's server may hold the GIL before another that waits for it gets it
#: (``sys.setswitchinterval``; Python's default is 0.005), set by ``dashboard/server.py``. Why (issue 31): with a class
#: of 100, a page's run ended in 0.044 s (median) but its last message reached the browser 0.82 s later. Streamlit's
#: event loop, which starts each run's thread and sends every element's message, waited for the GIL behind a dozen
#: page runs: 34 % of its time inside ``Thread.start`` (a new run's thread must get the GIL to say it started), and the
#: runs waited in turn after waking the loop for each element. Every 5 ms a thread gives up the GIL to another, so
#: with many runnable threads each of those waits is many switches long. ``bench/load.py --mode protocol --sessions
#: 100`` (median answer in s, by interval): 0.0005: 2.33, 1.51; 0.001: 1.64, 2.05; 0.005: 0.61-1.41 in six runs;
#: 0.01: 0.35, 0.47; 0.02: 0.14-0.37 in six runs; 0.05: 0.93, 1.30.
SERVER_SWITCH_INTERVAL = 0.02

#: Messages Streamlit's event loop sends before it lets other tasks run (``dashboard/delivery.py``, set by
#: ``dashboard/server.py``; Streamlit's own flush loop yields after every message). Why (issue 31): each yield is a
#: turn of the loop that gives up the GIL, and with a class's page runs holding it, getting it back waited up to
#: the switch interval; a page run is 40-50 messages. ``bench/load.py --mode protocol --sessions 100``, median /
#: p90 answer in s, this day: 1 (Streamlit's own): 0.43-1.50 / 1.89-2.54 in five runs; 16: 0.46 / 1.89, 0.09 / 0.47;
#: 64: 0.09-0.76 / 0.77-2.09 in three; 200: 0.11 / 0.44-1.12 in three; 256: 0.08-0.14 / 0.28-1.24 in six; never:
#: 0.15-0.18 / 1.13-1.44. A batch of 200 small messages holds the loop a few milliseconds. It must stay well below
#: Streamlit's send queue of a session (``WEBSOCKET_MAX_SEND_QUEUE_SIZE``, 500 in 1.67): each session's sender task
#: empties that queue only when the loop turns, and a full queue disconnects the session; so never "no yield at all"
#: (tests/test_delivery.py checks half).
SERVER_FLUSH_YIELD_EVERY = 200
