"""What the PyTorch anchors of an ave-rewrite bench bundle share
(sdpa_anchor.py, grouped_anchor.py): the timing protocol of the bench (warm-up,
the L2 flushed before each run, CUDA events around each run, at least 10 runs)
and its statistics, and the JSON they update in place."""

import json

DTYPES = {"f32": "float32", "f64": "float64", "f16": "float16", "bf16": "bfloat16"}


def cuda_torch(path, result, anchor):
    """(torch, 0) when the kernel was timed and torch sees a CUDA device, with
    TF32 off (plain FP32, as the BLAS anchor); otherwise (None, exit status),
    the reason written into the result as anchor_error ("ANCHOR not timed: ...")."""
    if result.get("verdict") != "pass" or not result.get("median_ms"):
        result["anchor_error"] = anchor + " not timed: the kernel was not timed"
        write(path, result)
        return None, 0

    import torch

    if not torch.cuda.is_available():
        result["anchor_error"] = anchor + " not timed: torch sees no CUDA device"
        write(path, result)
        return None, 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    return torch, 0


def seeded_generator(torch, result):
    """A CUDA generator seeded from the bench's seed."""
    generator = torch.Generator(device="cuda")
    generator.manual_seed(int(result.get("seed", 0)) & 0x7FFFFFFFFFFFFFFF)
    return generator


def quantile(ordered, q):
    """Linear interpolation between order statistics, as ave_check.h's summarize()."""
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    fraction = position - low
    return ordered[low] * (1 - fraction) + ordered[high] * fraction


def timing_stats(what, samples):
    ordered = sorted(samples)
    median = quantile(ordered, 0.5)
    q1, q3 = quantile(ordered, 0.25), quantile(ordered, 0.75)
    return {
        "what": what,
        "runs": len(samples),
        "median_ms": median,
        "min_ms": ordered[0],
        "max_ms": ordered[-1],
        "q1_ms": q1,
        "q3_ms": q3,
        "iqr_over_median": (q3 - q1) / median if median > 0 else 0.0,
    }


def write(path, result):
    with open(path, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")


def uniform(torch, shape, dtype, generator):
    """Uniform in [-1, 1), the distribution the bench fills its inputs with."""
    values = torch.rand(shape, dtype=torch.float32, device="cuda", generator=generator)
    return (values * 2 - 1).to(dtype)


def time_runs(torch, result, what, function):
    """Times function() as the bench timed the kernel (its runs and warm-up
    from result["timing"]); the statistics of the samples."""
    timing = result.get("timing") or {}
    runs = max(int(timing.get("runs", 20)), 10)
    warmup = max(int(timing.get("warmup", 3)), 1)
    properties = torch.cuda.get_device_properties(0)
    l2_bytes = getattr(properties, "L2_cache_size", 0) or (50 << 20)
    flush = torch.empty(max(2 * l2_bytes, 256 << 20), dtype=torch.uint8, device="cuda")
    for _ in range(warmup):
        function()
    torch.cuda.synchronize()
    events = [
        (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
        for _ in range(runs)
    ]
    for run, (start, stop) in enumerate(events):
        flush.fill_(run & 0xFF)  # evicts what the previous run left in the L2
        start.record()
        function()
        stop.record()
    torch.cuda.synchronize()
    return timing_stats(what, [start.elapsed_time(stop) for start, stop in events])


def record_anchor(result, stats, extra):
    """The anchor fields of the result: its median, TFLOP/s at the kernel's
    FLOP count, and the kernel's speed as a fraction of it."""
    median = stats["median_ms"]
    flops = result.get("flop_count") or 0
    result["anchor"] = stats["what"]
    result["anchor_error"] = None
    result["anchor_ms"] = median
    result["anchor_tflops"] = flops / (median / 1e3) / 1e12 if flops else None
    result["anchor_ratio"] = median / result["median_ms"]
    result.update(extra)
    result["anchor_order"] = "after the kernel, in a separate process (not interleaved)"
    if isinstance(result.get("timing"), dict):
        result["timing"]["anchor"] = stats
