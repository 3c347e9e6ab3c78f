package io.idem.core.spi;

/** The result of one health probe. */
public record HealthAnswer(boolean healthy, String detail) {}
