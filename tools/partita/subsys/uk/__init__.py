"""The proxy kernel's delegation to the user-level kernel (brief 3, docs/proxy-kernel.md)."""
