"""Running a configuration: build the image, boot it in QEMU, collect and report the trace."""
