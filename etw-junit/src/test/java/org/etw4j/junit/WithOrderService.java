package org.etw4j.junit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The set-up the {@link OrderService} examples share: each test gets a new service (its provider registered once
 * {@code @EtwTest}'s session is listening, as JUnit runs extensions' callbacks before {@code @BeforeEach}) and
 * closes it after the test, before the session stops.
 */
abstract class WithOrderService {
    OrderService service;

    @BeforeEach
    void open() {
        service = new OrderService();
    }

    @AfterEach
    void close() {
        service.close();
    }
}
