/*
 * Goldfish RTC (hw/rtc/goldfish_rtc.c): a 64-bit ns clock and one alarm that raises PLIC
 * source VIRT_RTC_IRQ. Only its alarm is used: a device-timed interrupt source
 * (<partita/hal_irq.h>). Reading TIME_LOW latches TIME_HIGH; writing ALARM_LOW arms the alarm
 * at (ALARM_HIGH << 32 | value).
 */
#include <stdint.h>
#include <partita/hal_irq.h>
#include "virt.h"

#define RTC_TIME_LOW 0x00
#define RTC_TIME_HIGH 0x04
#define RTC_ALARM_LOW 0x08
#define RTC_ALARM_HIGH 0x0c
#define RTC_IRQ_ENABLED 0x10
#define RTC_CLEAR_INTERRUPT 0x1c

static inline volatile uint32_t *rtc_reg(unsigned r)
{
	return (volatile uint32_t *)(VIRT_RTC_BASE + r);
}

void hal_rtc_alarm_in(uint64_t ns)
{
	uint64_t lo = *rtc_reg(RTC_TIME_LOW);
	uint64_t at = ((uint64_t)*rtc_reg(RTC_TIME_HIGH) << 32 | lo) + ns;
	*rtc_reg(RTC_IRQ_ENABLED) = 1;
	*rtc_reg(RTC_ALARM_HIGH) = (uint32_t)(at >> 32);
	*rtc_reg(RTC_ALARM_LOW) = (uint32_t)at;
}

void hal_rtc_ack(void)
{
	*rtc_reg(RTC_CLEAR_INTERRUPT) = 1;
}
