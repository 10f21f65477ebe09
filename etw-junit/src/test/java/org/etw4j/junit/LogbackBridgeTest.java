package org.etw4j.junit;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import org.etw4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The Logback bridge end to end, as a service would test its logging: SLF4J calls, configured by a logback.xml
 * with the ETW appender, checked as ETW events with {@code @EtwTest}.
 */
@EtwTest(providers = LogbackBridgeTest.PROVIDER)
class LogbackBridgeTest {
    static final String PROVIDER = "Etw4j-JUnit-Logback-Example";

    private final Logger log = LoggerFactory.getLogger("com.example.Orders");

    @BeforeEach
    void configureLogback() throws JoranException {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(getClass().getResource("/logback-etw-junit.xml"));
    }

    @AfterEach
    void stopLogback() {
        MDC.clear();
        ((LoggerContext) LoggerFactory.getILoggerFactory()).reset(); // stops the appender: unregisters the provider
    }

    @Test
    void logRecordsBecomeEventsWithTheirLevelsContextAndException(CapturedEvents events) {
        MDC.put("orderId", "A-17");
        log.info("placed {} items", 3);
        log.debug("cart checked");
        log.trace("below the root level: never written");
        log.warn("payment declined", new IllegalStateException("card refused"));

        events.assertThat()
                .hasCount("FormattedMessage", 3)
                .hasEvent("FormattedMessage").withField("FormattedMessage", "placed 3 items").withLevel(Level.INFORMATIONAL)
                        .withField("LoggerName", "com.example.Orders").withField("Level", 2).withField("orderId", "A-17").once()
                .and()
                .hasEvent("FormattedMessage").withField("FormattedMessage", "cart checked").withLevel(Level.VERBOSE).once()
                .and()
                .hasEvent("FormattedMessage").withField("FormattedMessage", "payment declined").withLevel(Level.WARNING)
                        .withField("Exception.TypeName", "java.lang.IllegalStateException")
                        .withField("Exception.Message", "card refused").once()
                .and()
                .hasNoEventMoreSevereThan(Level.WARNING)
                .hasNoLostEvents();
    }

    @Test
    @EtwTest(providers = PROVIDER, level = Level.WARNING)
    void aWarningSessionReceivesNoInfo(CapturedEvents events) {
        log.info("routine");
        log.error("failed");

        events.assertThat()
                .hasNoEventMoreVerboseThan(Level.WARNING)
                .hasEvent("FormattedMessage").withField("FormattedMessage", "failed").withLevel(Level.ERROR).once()
                .and()
                .hasSize(1);
    }
}
