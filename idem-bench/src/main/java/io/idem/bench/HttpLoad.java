package io.idem.bench;

import io.idem.server.http.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * A closed-loop HTTP load: {@code clients} platform threads, each sending its next {@code POST
 * /v1/jobs} as soon as the previous one answered, over one shared HTTP/1.1 keep-alive client, until a
 * time limit or a request budget runs out. Latency is each exchange as the client saw it (closed
 * loop: a slow answer delays the next request instead of queueing it, so the tail is not corrected
 * for coordinated omission). Only {@code 127.0.0.1}.
 */
final class HttpLoad {
    private final HttpClient http;
    private final URI jobs;
    private final String apiKey;

    /** How requests are keyed: none, or a new {@code Idempotency-Key} for each request. */
    enum Keys {
        NONE,
        UNIQUE
    }

    /** What one run did. */
    record Result(
            long ok, long failed, Map<Integer, Long> statuses, Histogram latency, Duration elapsed, String error) {
        double perSecond() {
            return ok / (elapsed.toNanos() / 1e9);
        }
    }

    HttpLoad(String baseUrl, String apiKey) {
        if (!baseUrl.startsWith("http://127.0.0.1:")) {
            throw new IllegalArgumentException("the load tool only talks to 127.0.0.1, not " + baseUrl);
        }
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        this.jobs = URI.create(baseUrl + "/v1/jobs");
        this.apiKey = apiKey;
    }

    /** Runs until {@code limit} has passed or {@code budget} requests were sent, whichever is first. */
    Result run(int clients, Duration limit, long budget, Keys keys) {
        AtomicLong left = new AtomicLong(budget);
        AtomicReference<String> firstError = new AtomicReference<>();
        Map<Integer, Long> statuses = new ConcurrentHashMap<>();
        List<Histogram> histograms = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        long[] deadline = new long[1];
        for (int i = 0; i < clients; i++) {
            Histogram histogram = new Histogram(Duration.ofSeconds(60).toNanos(), 3);
            histograms.add(histogram);
            int client = i;
            threads.add(Thread.ofPlatform().name("bench-client-" + i).start(() -> {
                await(go);
                long sequence = 0;
                while (System.nanoTime() < deadline[0] && left.getAndDecrement() > 0) {
                    HttpRequest request = request(client, sequence++, keys);
                    long started = System.nanoTime();
                    try {
                        HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
                        histogram.recordValue(System.nanoTime() - started);
                        statuses.merge(response.statusCode(), 1L, Long::sum);
                    } catch (IOException e) {
                        statuses.merge(-1, 1L, Long::sum);
                        firstError.compareAndSet(null, e.toString());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }));
        }
        long started = System.nanoTime();
        deadline[0] = started + limit.toNanos();
        go.countDown();
        for (Thread thread : threads) {
            join(thread);
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        Histogram all = new Histogram(Duration.ofSeconds(60).toNanos(), 3);
        histograms.forEach(all::add);
        long ok = statuses.getOrDefault(202, 0L);
        long total = statuses.values().stream().mapToLong(Long::longValue).sum();
        return new Result(ok, total - ok, new TreeMap<>(statuses), all, elapsed, firstError.get());
    }

    private HttpRequest request(int client, long sequence, Keys keys) {
        String body = "{\"prompt\":\"bench job " + client + "-" + sequence + ": a lighthouse over a cloud ocean\"}";
        HttpRequest.Builder request = HttpRequest.newBuilder(jobs)
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + apiKey)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        switch (keys) {
            case NONE -> {}
            case UNIQUE -> request.header("Idempotency-Key", "bench-" + UUID.randomUUID());
        }
        return request.build();
    }

    /** Creates a {@code client} key through the admin API and returns its secret. */
    static String clientKey(String baseUrl, String adminKey) {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/admin/keys"))
                .header("Authorization", "Bearer " + adminKey)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"owner\":\"bench\",\"role\":\"client\"}"))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 201) {
                throw new IllegalStateException("could not create a client key: HTTP " + response.statusCode());
            }
            return Json.MAPPER.readTree(response.body()).get("key").asText();
        } catch (IOException e) {
            throw new IllegalStateException("could not create a client key", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
