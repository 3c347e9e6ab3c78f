package io.idem.core.spi;

import java.util.UUID;

/** An attempt about to be written ahead of its provider call. */
public record AttemptDraft(UUID attemptId, String provider, String vendorModel, int round) {}
