package io.idem.server.jobs;

import io.idem.core.spi.JobReads;
import io.idem.server.assets.AssetLinks;

/**
 * What every surface that takes or shows jobs shares ({@code /v1/jobs}, the OpenAI images route,
 * the console): how a request is read, how it is accepted, how jobs are looked up, and how their
 * results are linked. All thread-safe.
 */
public record JobDesk(JobRequests requests, Submissions submissions, JobReads reads, AssetLinks links) {}
