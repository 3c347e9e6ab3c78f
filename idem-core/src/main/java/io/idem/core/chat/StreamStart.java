package io.idem.core.chat;

/** How a streaming call starts: locked to a model that produced content, or failed before any. */
public sealed interface StreamStart permits LockedStream, ChainResult.Failed {}
